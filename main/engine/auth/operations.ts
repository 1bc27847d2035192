import { API_KEY_OPERATIONS } from '../../../shared/contracts/auth.js';
import { SECOND_FACTOR_OPERATIONS } from '../../../shared/contracts/second-factor.js';
import { implement } from '../operation.js';
import type { AuthServices } from './services.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './api-key-ops.js';
import {
  confirmTwoStep,
  disableTwoStep,
  listTwoStep,
  resetTwoStep,
  sendOtp,
  startTwoStep,
  twoStepStatus,
  validateOtp,
} from './second-factor-ops.js';

export const API_KEY_IMPLEMENTATIONS = implement<AuthServices>()(API_KEY_OPERATIONS, {
  createApiKey: { run: createApiKey, target: (_i, o) => o?.keyId ?? null },
  listApiKeys: { run: listApiKeys },
  rotateApiKey: { run: rotateApiKey, target: (i) => i.keyId },
  revokeApiKey: { run: revokeApiKey, target: (i) => i.keyId },
});

/** The audit target of a user's own second-factor changes is the user; never the secret or a code. */
export const SECOND_FACTOR_IMPLEMENTATIONS = implement<AuthServices>()(SECOND_FACTOR_OPERATIONS, {
  twoStepStatus: { run: twoStepStatus },
  startTwoStep: { run: startTwoStep },
  confirmTwoStep: { run: confirmTwoStep },
  disableTwoStep: { run: disableTwoStep },
  validateOtp: { run: validateOtp },
  sendOtp: { run: sendOtp },
  listTwoStep: { run: listTwoStep },
  resetTwoStep: { run: resetTwoStep, target: (i) => i.userId },
});
