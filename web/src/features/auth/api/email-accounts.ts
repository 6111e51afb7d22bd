import { accountsApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** E-mail and password accounts (offered when the server has SMTP configured). */
export const emailLogin = (email: string, password: string) =>
  callApi(accountsApi.emailLogin, { email, password });
export const registerAccount = (username: string, email: string, password: string) =>
  callApi(accountsApi.register, { username, email, password });
export const forgotPassword = (email: string) => callApi(accountsApi.forgotPassword, { email });
export const resetPassword = (token: string, password: string) =>
  callApi(accountsApi.resetPassword, { token, password });
