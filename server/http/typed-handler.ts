// Handlers typed from the contract: `Handler<'signDocument'>` gets the path parameters, query and body of
// that operation in openapi/schema.d.ts, and must answer one of its 2xx JSON bodies (a status other than
// 200 is set on the reply, the body still returned, so that the compiler checks it).
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

// What a handler may answer: the JSON body of one of its operation's 2xx responses, or the reply itself
// once it has sent something else (a redirect, an empty 204, a file).
type Responses<Id extends OperationId> = Operation<Id>['responses'];
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
export type ReplyBody<Id extends OperationId> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201 | 202 ? JsonOf<Responses<Id>[Status]> : never;
}[keyof Responses<Id>];

// What helpers shared by the operations on one resource need: its id from the path.
export type RequestWithId = FastifyRequest<{ Params: { id: string } }>;

export type Handler<Id extends OperationId> = (
  req: OperationRequest<Id>,
  reply: FastifyReply,
) => Promise<ReplyBody<Id> | FastifyReply | undefined>;

// The handlers of a module, by operationId: each is checked against its own operation.
export type Handlers = { [Id in OperationId]?: Handler<Id> };
