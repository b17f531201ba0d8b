// The /api routes as fastify-openapi-glue builds them from openapi/openapi.yaml (method, URL and the
// schemas of each request part), read once per process. The glue checks the whole contract against the
// OpenAPI meta-schema at every registration, with an Ajv of its own that compiles that meta-schema again:
// a quarter of building the app, which the API tests do hundreds of times in one process. The routes are
// read from a probe instance that is never started, and each app registers copies of them.
import Fastify, { type FastifySchema, type HTTPMethods, type RouteOptions } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { apiDocument, type OpenApiDocument } from './contract.ts';

export type ContractRoute = {
  method: HTTPMethods | HTTPMethods[];
  /** Fastify's form of the contract's path, without the /api prefix: /documents/:id. */
  url: string;
  schema: FastifySchema | undefined;
  operationId: string;
};

let read: Promise<ContractRoute[]> | null = null;

export function contractRoutes(contract: OpenApiDocument): Promise<ContractRoute[]> {
  read ??= readRoutes(contract).catch((error: unknown) => {
    read = null;
    throw error;
  });
  return read;
}

async function readRoutes(contract: OpenApiDocument): Promise<ContractRoute[]> {
  const routes: ContractRoute[] = [];
  // No HEAD twins: each app adds its own for its GET routes.
  const probe = Fastify({ exposeHeadRoutes: false });
  probe.addHook('onRoute', (route) => {
    const { operationId } = route.config as { operationId: string };
    routes.push({ method: route.method, url: route.url, schema: route.schema, operationId });
  });
  await probe.register(openapiGlue, {
    specification: apiDocument(contract),
    // The glue spreads this over the route it built; only the operation's id is kept.
    operationResolver: (operationId: string) =>
      ({ handler: async () => null, config: { operationId } }) as unknown as RouteOptions,
  });
  return routes;
}
