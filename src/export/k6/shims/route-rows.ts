/**
 * The route table as the k6 bundle's endpoint namer reads it (src/replay/endpoint-name.ts builds
 * the server's Router over each row's id, mount, method and path): the rows of the client's
 * endpoint table (src/client/endpoint-table.ts, generated from the route rows: the same rows in
 * the same order, kept fresh by test/client/endpoint-table.test.ts), in place of
 * src/http/routes/index.ts. Only endpoint-name.ts is pointed here (k6-bundle.ts).
 * Why: the real rows carry their handlers, hence every service, the platform and their
 * import-time tables (trading's exp tables, the casino's games): a third of the script, which
 * every k6 VU evaluated to name requests. The names are the same (test/export/k6-bundle.test.ts).
 */
import { ROUTE_ENDPOINTS } from '../../../client/endpoint-table.ts';

export const ALL_ROUTES = Object.entries(ROUTE_ENDPOINTS).map(([id, row]) => ({ id, ...row }));
