import type { ComponentType } from 'react';
import { canCall, type OperationName } from '../../shared/operations.js';
import type { Role } from '../../shared/roles.js';
import { OverviewView } from './OverviewView.js';

/**
 * The app's views. Each names the operation it needs, so navigation shows only what the signed-in role
 * may use (the engine enforces the same table; hiding is for clarity, not security).
 */
export interface ViewDef {
  id: string;
  label: string;
  requires: OperationName;
  Component: ComponentType;
}

export const VIEWS: readonly ViewDef[] = [{ id: 'overview', label: 'Overview', requires: 'me', Component: OverviewView }];

export function viewsFor(role: Role | null): ViewDef[] {
  return VIEWS.filter((v) => canCall(role, v.requires));
}
