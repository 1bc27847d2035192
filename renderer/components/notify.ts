import { notifications } from '@mantine/notifications';
import { messageOf } from './errors.js';

export const notifySuccess = (message: string) => notifications.show({ color: 'teal', message, autoClose: 4000 });
export const notifyError = (err: unknown) =>
  notifications.show({ color: 'red', title: 'That did not work', message: messageOf(err), autoClose: 8000 });
export const notifyInfo = (message: string) => notifications.show({ color: 'yellow', message, autoClose: 8000 });
