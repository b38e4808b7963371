/**
 * Peak live heap: the heap in use right after each full garbage collection, the largest seen. Unlike peak
 * RSS, which follows how far V8 lets the heap grow between collections, this is what the replay holds on
 * to, so it shows whether memory stays bounded as a capture grows.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface HeapWatch {
  /** Megabytes; 0 when no full collection has happened yet. */
  peakLiveMb(): number;
  stop(): void;
}

export function watchLiveHeap(): HeapWatch {
  let peak = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) peak = Math.max(peak, getHeapStatistics().used_heap_size);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { peakLiveMb: () => Math.round(peak / 1024 / 1024), stop: () => observer.disconnect() };
}
