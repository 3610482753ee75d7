import { afterEach, describe, expect, it, vi } from 'vitest';
import { quietWorkerLogger } from '../../jobs/quiet-logger';

describe("the worker's logger", () => {
  afterEach(() => vi.restoreAllMocks());

  it('leaves out the line of each successful job and the pool-size warning, and prints the rest', () => {
    const printed: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
    }
    const logger = quietWorkerLogger();
    logger.info('Completed task 7 (deliver_webhook, 3.2ms) with success', { success: true });
    logger.warn('WARNING: having maxPoolSize (10) smaller than concurrency (32) may lead to non-optimal performance.', { max: 10, concurrency: 32 });
    logger.info('Worker connected and looking for jobs...');
    logger.warn('Failed task 8 (deliver_webhook) with error boom');
    logger.error('PostgreSQL idle client generated error: gone');
    expect(printed.join('\n')).not.toMatch(/with success|maxPoolSize/);
    expect(printed.join('\n')).toMatch(/Worker connected/);
    expect(printed.join('\n')).toMatch(/Failed task 8/);
    expect(printed.join('\n')).toMatch(/idle client generated error/);
  });
});
