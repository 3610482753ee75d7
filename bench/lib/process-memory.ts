import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Resident memory of a process now, in MB. */
export function rssMb(pid: number): number {
  return statusBytes(pid, 'VmRSS') / MB;
}

/**
 * Peak resident memory of another process over a stretch of time: the kernel's high-water mark
 * (VmHWM), reset at the start through /proc/<pid>/clear_refs, and, where that reset is not
 * allowed, the highest of samples every 10 ms.
 */
export class PeakRss {
  private sampled = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly kernelReset: boolean;

  constructor(private readonly pid: number) {
    this.kernelReset = resetHighWaterMark(pid);
    this.sampled = statusBytes(pid, 'VmRSS');
    this.timer = setInterval(() => {
      this.sampled = Math.max(this.sampled, statusBytes(pid, 'VmRSS'));
    }, 10);
  }

  /** Stops watching; the peak in MB. */
  stop(): number {
    clearInterval(this.timer);
    const sampled = Math.max(this.sampled, statusBytes(this.pid, 'VmRSS'));
    return (this.kernelReset ? Math.max(sampled, statusBytes(this.pid, 'VmHWM')) : sampled) / MB;
  }
}

function resetHighWaterMark(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
