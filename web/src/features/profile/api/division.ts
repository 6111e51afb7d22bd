import { divisionsApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** POST /api/user/division: the caller picks a division by name (null: none), until their first solve. */
export const pickDivision = (division: string | null) => callApi(divisionsApi.pickDivision, { division });
