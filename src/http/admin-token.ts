/**
 * The admin token of an afp serve shared by a team: the header it travels in and the environment
 * variable afp's commands read it from. One place for both sides: the serve checks it
 * (src/server/admin-access.ts), every admin call afp sends carries it (src/client/admin-client.ts), and the k6
 * export's script sends it from the same variable (src/export/k6).
 * Why a header of its own and not `Authorization`: the platform's bearer keys travel there.
 * Why in http/: it is a fact of the wire that the serve (server/) and afp's clients (client/)
 * both speak, and server/ sits below client/ in the layers.
 */

/** Lower case, as the transport and the edge write header names. */
export const ADMIN_TOKEN_HEADER = 'x-afp-admin-token';
export const ADMIN_TOKEN_ENV = 'AFP_ADMIN_TOKEN';

/** The admin token the user gave afp's commands (AFP_ADMIN_TOKEN), or null. */
export function adminTokenFromEnvironment(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
  const token = environment[ADMIN_TOKEN_ENV];
  return token === undefined || token === '' ? null : token;
}

/** `headers` with the serve's admin token when one is given (the k6 export's admin calls). */
export function adminHeaders(headers: Record<string, string>, adminToken: string | null): Record<string, string> {
  return adminToken === null ? headers : { ...headers, [ADMIN_TOKEN_HEADER]: adminToken };
}
