import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerFor, type ErrorAnswer } from '../errors/error-response';
import { errorBody } from '../../rest-shim/envelope';

/** Charges a request to its caller's budgets (the context hook's first step); throws 429 when spent. */
export type Charge = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Answers a URL Fastify cannot decode with 400 in the envelope. Such a request reaches no route
 * and no hook, so it is charged here to its caller's budgets like any other request: it carries
 * the rate-limit headers, and once the budget is spent it is refused with 429 like the rest.
 */
export async function answerMalformedUrl(request: FastifyRequest, reply: FastifyReply, charge: Charge | undefined): Promise<void> {
  const message = 'Malformed request URL';
  let answer: ErrorAnswer = { status: 400, code: 'BAD_USER_INPUT', message, errors: [{ field: null, message }] };
  try {
    await charge?.(request, reply);
  } catch (err) {
    answer = answerFor(err);
    if (answer.status >= 500) request.log.error({ err }, 'request failed');
  }
  await reply.code(answer.status).send(errorBody(answer.status, answer.message, answer.errors));
}
