/** A scenario's keys as a run sends them: each with its key and its rate in requests per real second. */
import { perSecond } from './rate.ts';
import type { RunKey } from './runner.ts';
import type { Scenario } from './scenario.ts';

export function runKeysOf(scenario: Scenario, keyOf: (spec: Scenario['keys'][number]) => string, scale: number): RunKey[] {
  return scenario.keys.map((spec, index) => ({
    spec,
    key: keyOf(spec),
    perSecond: perSecond(spec.rate, spec.plan, scale, scenario.source === 'command-line flags' ? '--rate' : `${scenario.source}: keys[${index}].rate`),
  }));
}
