// @ts-check
/**
 * `npm run -s altcha-solve`: reads an ALTCHA challenge (the answer of GET /api/v1/auth/challenge)
 * on standard input and prints the `challenge_token` that POST /api/v1/auth/login takes — the work
 * the browser widget does, for a terminal user or a script signing in with a password:
 *
 *   CT=$(curl -s -A "$UA" $B/auth/challenge | npm run -s altcha-solve)
 *
 * Anything that is not a challenge (an error envelope, an empty answer) exits 1 with its message
 * on standard error, so `CT=$(…)` fails loudly instead of carrying a useless token.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** Standard input, whole. */
async function readInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Fails with `message` on standard error and exit code 1. */
function fail(message) {
  process.stderr.write(`altcha-solve: ${message}\n`);
  process.exit(1);
}

const input = (await readInput()).trim();
let challenge;
try {
  challenge = JSON.parse(input);
} catch {
  fail(`expected the JSON of GET /api/v1/auth/challenge on standard input, got ${JSON.stringify(input.slice(0, 200))}`);
}
if (typeof challenge?.parameters !== 'object' || typeof challenge.signature !== 'string') {
  fail(`not an ALTCHA challenge: ${challenge?.message ?? JSON.stringify(challenge).slice(0, 200)}`);
}
const solution = await solveChallenge({ challenge, deriveKey });
if (!solution) fail('no solution found within the challenge\'s counter range');
// The widget's payload: base64 of JSON {challenge, solution}.
process.stdout.write(`${Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')}\n`);
