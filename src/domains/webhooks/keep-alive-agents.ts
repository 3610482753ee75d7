import https from 'node:https';
import { pinnedLookup, type ResolvedAddress } from './target-guard';

/** Limits of the connection cache. */
export interface KeepAliveLimits {
  /** Agents (distinct host, port and pinned address) kept at most; the least recently used goes first. */
  maxAgents: number;
  /** Idle sockets kept per agent. */
  maxIdleSocketsPerAgent: number;
  /**
   * An idle socket is closed after this long. Below the usual server keep-alive timeouts (Node's
   * 5 s, nginx's 75 s), so the service usually closes first and rarely writes into a socket the
   * receiver is closing. Node also honours a shorter `Keep-Alive: timeout=` the receiver announces.
   */
  idleMs: number;
}

/** What the worker uses unless told otherwise. */
export const DEFAULT_KEEP_ALIVE_LIMITS: KeepAliveLimits = { maxAgents: 256, maxIdleSocketsPerAgent: 32, idleMs: 4_000 };

/**
 * Keep-alive HTTPS agents, one per (host, port, pinned address), so a new TLS handshake is not
 * needed for every attempt. Node's agent pools sockets by host name and port, not by the address
 * it connected to; one agent per vetted address means a reused socket always goes where this
 * attempt's SSRF check looked, even when DNS has since changed. TLS still verifies the URL's host
 * name (the agent passes it as `servername` and checks the certificate against it).
 */
export class KeepAliveAgents {
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly agents = new Map<string, https.Agent>();

  constructor(private readonly limits: KeepAliveLimits = DEFAULT_KEEP_ALIVE_LIMITS) {}

  /** The agent for this URL's host and port connecting to `pinned`, created (and the oldest evicted) if needed. */
  agentFor(url: URL, pinned: ResolvedAddress): https.Agent {
    const key = `${url.hostname}|${url.port || '443'}|${pinned.address}`;
    const known = this.agents.get(key);
    if (known) {
      this.agents.delete(key);
      this.agents.set(key, known);
      return known;
    }
    const agent = new https.Agent({
      keepAlive: true,
      maxFreeSockets: this.limits.maxIdleSocketsPerAgent,
      // Node destroys a socket in the free list when this fires; a busy one is left to the attempt's own timer.
      timeout: this.limits.idleMs,
      lookup: pinnedLookup(pinned),
    });
    this.agents.set(key, agent);
    if (this.agents.size > this.limits.maxAgents) this.evictOldest();
    return agent;
  }

  /** How many agents are cached. */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every idle socket and forgets every agent (sockets in use close once their attempt ends). */
  close(): void {
    for (const agent of this.agents.values()) retire(agent);
    this.agents.clear();
  }

  private evictOldest(): void {
    const [key, agent] = this.agents.entries().next().value as [string, https.Agent];
    this.agents.delete(key);
    retire(agent);
  }
}

/**
 * Closes an agent's idle sockets now. Sockets still carrying an attempt are not cut off: they
 * return to the agent's free list when the attempt ends and close after the idle timeout, since
 * nobody asks this agent for a socket any more.
 */
function retire(agent: https.Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
