/** Removes the run's key leases once every worker has finished. */
import { rmSync } from 'node:fs';
import { currentRun } from './run.ts';

export default function globalTeardown(): void {
  rmSync(currentRun().leaseDir, { recursive: true, force: true });
}
