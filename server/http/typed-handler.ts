// Handlers typed from the contract: `Handler<'signDocument'>` gets the path parameters, query and body of
// that operation in openapi/schema.d.ts.
// The types hold because Fastify validates each part against the same openapi.yaml before the handler
// runs, and the body gate (request-body.ts) keeps other media types from skipping that validation.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../openapi/schema';

export type OperationId = keyof operations;

type Operation<Id extends OperationId> = operations[Id];

// An absent part is `never` (or `undefined`) in the generated types: it becomes an empty object here.
type Present<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;

export type PathParams<Id extends OperationId> = Present<Operation<Id>['parameters']['path']>;

export type QueryParams<Id extends OperationId> = Present<Operation<Id>['parameters']['query']>;

export type RequestBody<Id extends OperationId> = [NonNullable<Operation<Id>['requestBody']>] extends [never]
  ? undefined
  : NonNullable<Operation<Id>['requestBody']> extends { content: { 'application/json': infer Body } }
    ? Body
    : undefined;

export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Params: PathParams<Id>;
  Querystring: QueryParams<Id>;
  Body: RequestBody<Id>;
}>;

// The answer is not typed yet: several handlers build bodies the compiler cannot prove match the
// contract (plain `string` for an enum, a possibly missing row); the API tests check every answer.
// What helpers shared by the operations on one resource need: its id from the path.
export type RequestWithId = FastifyRequest<{ Params: { id: string } }>;

export type Handler<Id extends OperationId> = (
  req: OperationRequest<Id>,
  reply: FastifyReply,
) => Promise<unknown>;

// The handlers of a module, by operationId: each is checked against its own operation.
export type Handlers = { [Id in OperationId]?: Handler<Id> };
