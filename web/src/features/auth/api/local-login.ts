import { authApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** Local sign-in for a trial without OAuth apps (offered only when the server says so). */
export function localLogin(username: string, admin: boolean) {
  return callApi(authApi.localLogin, { username, admin });
}
