/** Two ways of doing one job, timed in one process in alternating rounds (the order swapped each round), so both meet the same machine. */
import { median } from '../server/autocannon.ts';

export interface Contender {
  name: string;
  /** Does the job once; returns how many units (bodies, entries) it handled. */
  run: () => number | Promise<number>;
}

export interface Comparison {
  job: string;
  unit: string;
  /** Units a second, the median of the rounds, per contender in the order given. */
  perSecond: number[];
  /** Ours over the library's, per round (the first contender over the second). */
  ratios: number[];
}

export async function alternate(job: string, unit: string, [ours, library]: [Contender, Contender], rounds: number, minMs = 1_000): Promise<Comparison> {
  const rates: [number[], number[]] = [[], []];
  const timed = async (contender: Contender): Promise<number> => {
    let units = 0;
    const start = performance.now();
    while (performance.now() - start < minMs) units += await contender.run();
    return units / ((performance.now() - start) / 1000);
  };
  await timed(ours);
  await timed(library);
  for (let round = 0; round < rounds; round++) {
    const order: Array<0 | 1> = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) rates[which].push(await timed(which === 0 ? ours : library));
  }
  return { job, unit, perSecond: [median(rates[0]), median(rates[1])], ratios: rates[0].map((rate, index) => rate / rates[1][index]!) };
}
