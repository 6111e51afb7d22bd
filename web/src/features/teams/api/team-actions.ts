import { teamsApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/**
 * The team page's writes (docs/product.md §7). Each answers the server's outcome; a failed network throws
 * NetworkError, which the page only logs (docs/product.md §8).
 */
export const createTeam = (teamName: string) => callApi(teamsApi.createTeam, { team_name: teamName });

export const requestToJoin = (teamName: string) => callApi(teamsApi.requestTeam, { team_name: teamName });

export const renameTeam = (teamName: string) => callApi(teamsApi.updateTeam, { team_name: teamName });

/** Leave Team goes through docs/product.md's replace-leader call with the team's own name. */
export const leaveTeam = (teamName: string) =>
  callApi(teamsApi.replaceLeader, { team_data: { name: teamName } });

export const removeMember = (username: string) =>
  callApi(teamsApi.removeMember, { member_username: username });

/** Accept Request: the join request's _id and checksum, as the leader received them. */
export const acceptRequest = (requestId: string, checksum: string) =>
  callApi(teamsApi.addMember, { request_id: requestId, checksum });
