import { freePort } from '../../lib/free-port.ts';

/** A port with nothing listening, for "unreachable target" tests: released as soon as the system gave it. */
export const closedPort = freePort;
