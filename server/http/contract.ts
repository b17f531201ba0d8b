// Reads openapi/openapi.yaml once and prepares it for fastify-openapi-glue: only the /api operations
// (those that do not override `servers`), and for each operation whether a bearer token is required and
// which request body it takes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CONTRACT_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../openapi/openapi.yaml',
);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type SecurityRequirement = Record<string, string[]>;
type RequestBodyObject = { required?: boolean; content?: Record<string, unknown>; $ref?: string };
type Operation = {
  operationId?: string;
  security?: SecurityRequirement[];
  requestBody?: RequestBodyObject;
} & Record<string, unknown>;
type PathItem = { servers?: unknown[] } & Record<string, unknown>;
export type OpenApiDocument = {
  paths: Record<string, PathItem>;
  security?: SecurityRequirement[];
  components?: {
    securitySchemes?: Record<string, { type?: string; scheme?: string }>;
    requestBodies?: Record<string, RequestBodyObject>;
  };
} & Record<string, unknown>;

// The media types (lower case, no parameters) an operation's body may have, and whether a body is
// required; null when the operation takes no body at all.
export type ContractRequestBody = { required: boolean; mediaTypes: string[] };

export type ContractOperation = {
  operationId: string;
  method: string;
  path: string;
  requiresBearer: boolean;
  requestBody: ContractRequestBody | null;
};

let cached: OpenApiDocument | null = null;

export function loadContract(): OpenApiDocument {
  cached ??= parse(fs.readFileSync(CONTRACT_PATH, 'utf8')) as OpenApiDocument;
  return cached;
}

function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null;
}

// Bearer is required when every alternative of the operation's security names a bearer scheme; an empty
// alternative (`{}`) or a cookie alternative leaves the check to the handler.
function requiresBearer(document: OpenApiDocument, security: SecurityRequirement[] | undefined): boolean {
  const requirements = security ?? document.security ?? [];
  const schemes = document.components?.securitySchemes ?? {};
  const isBearer = (name: string): boolean =>
    schemes[name]?.type === 'http' && schemes[name]?.scheme?.toLowerCase() === 'bearer';
  return (
    requirements.length > 0 && requirements.every((alternative) => Object.keys(alternative).some(isBearer))
  );
}

function requestBodyOf(
  document: OpenApiDocument,
  body: RequestBodyObject | undefined,
): ContractRequestBody | null {
  let resolved = body;
  const prefix = '#/components/requestBodies/';
  if (resolved?.$ref?.startsWith(prefix)) {
    resolved = document.components?.requestBodies?.[resolved.$ref.slice(prefix.length)];
  }
  if (resolved === undefined) return null;
  return {
    required: resolved.required === true,
    mediaTypes: Object.keys(resolved.content ?? {}).map((mediaType) => mediaType.toLowerCase()),
  };
}

export function apiOperations(document: OpenApiDocument): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [openapiPath, item] of Object.entries(document.paths)) {
    if (item.servers !== undefined) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isOperation(operation) || typeof operation.operationId !== 'string') continue;
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: openapiPath,
        requiresBearer: requiresBearer(document, operation.security),
        requestBody: requestBodyOf(document, operation.requestBody),
      });
    }
  }
  return operations;
}

// The document fastify-openapi-glue should route: paths served outside /api (their own `servers`) are
// registered by hand, so they are left out here.
export function apiDocument(document: OpenApiDocument): OpenApiDocument {
  const paths: Record<string, PathItem> = structuredClone(
    Object.fromEntries(Object.entries(document.paths).filter(([, item]) => item.servers === undefined)),
  );
  // Answers are not validated or serialised from the contract (the API tests check them), and the glue
  // would take each answer's media type (application/pdf, image/png) for one it must parse, and warn at
  // every start that it has no parser for it: it is given the operations without their answers' bodies.
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as { responses?: Record<string, unknown> } | undefined;
      if (operation?.responses === undefined) continue;
      operation.responses = Object.fromEntries(
        Object.keys(operation.responses).map((status) => [status, { description: status }]),
      );
    }
  }
  return { ...structuredClone(document), paths, servers: [{ url: '/api' }] };
}
