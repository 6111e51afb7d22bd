import { integrityApi, type ModerateInput } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** POST /api/admin/moderate {target, name, action, reason}. */
export const moderate = (input: ModerateInput) => callApi(integrityApi.moderate, input);
