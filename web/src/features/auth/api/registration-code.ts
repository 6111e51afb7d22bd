import { accountsApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** The site's registration code, typed once before a new account is made. */
export function sendRegistrationCode(code: string) {
  return callApi(accountsApi.registrationCode, { code });
}
