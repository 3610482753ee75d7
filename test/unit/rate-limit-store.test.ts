import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerLimits } from '../../src/context/rate-limits';

/** The in-process store (no Redis) must remember far more keys than @fastify/rate-limit's default 5,000. */
describe('in-process rate-limit store', () => {
  it('keeps an exhausted account refused while many other accounts are counted', async () => {
    const app = Fastify();
    const limits = await registerLimits(app, { config: { rateLimit: { perMinute: 120, perHour: 2000 } }, namespace: 'store-test' });
    app.get('/spend', async (request, reply) => {
      const { key, others } = request.query as { key: string; others?: string };
      // Many other accounts' attempts, as a flood of made-up e-mail addresses would make.
      for (let i = 0; i < Number(others ?? 0); i += 1) await limits.spend(request, reply, 'signIn', `other-${i}`);
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      await limits.spend(request, reply, 'signIn', key);
      return { ok: true };
    });
    const spend = (others = 0) => app.inject({ method: 'GET', url: `/spend?key=victim&others=${others}` });
    for (let i = 0; i < 20; i += 1) expect((await spend()).statusCode).toBe(200);
    expect((await spend()).statusCode).toBe(429);
    const afterFlood = await spend(6000);
    expect(afterFlood.statusCode).toBe(429);
    expect(afterFlood.headers['x-ratelimit-remaining']).toBe('0');
    await app.close();
  });
});
