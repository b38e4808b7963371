/**
 * POST /pets (createPet) sent many at once: every animal still gets an id of its own. The creates go out over
 * sockets opened ahead, so a batch reaches the target together and its exchanges' times say how many of its creates
 * were in flight together; a run that could not send enough of them together leaves the rule partly checked.
 */
import { RULE } from '../../lib/checks/registry.ts';
import { BATCH_SIZE, CONCURRENT_CREATES, MAX_BATCHES, repeatedIds, roomForAnotherBatch, sendBatch, type Batch } from '../support/concurrent-creates.ts';
import { idOf } from '../support/pets.ts';
import { CREATES, rule, test } from '../support/test.ts';

test.use({ apiConnections: BATCH_SIZE });

test(...rule('CREATE-5', 'every created animal gets a unique id, also when animals are created concurrently', { tag: [CREATES] }), async ({ api, check }) => {
  const batches: Batch[] = [];
  let stopped: string | undefined;
  let repeatedFound = false;
  while (batches.length < MAX_BATCHES) {
    const batch = await sendBatch(api);
    batches.push(batch);
    const statuses = batch.exchanges.map((exchange) => exchange.response.status);
    check.expect(statuses.every((status) => status === 201), `expected ${BATCH_SIZE} concurrent creates to be answered 201, got ${statuses.join(', ')}`, { rule: RULE['created-as-sent'] });
    const repeated = repeatedIds(batches.flatMap((each) => each.exchanges), (exchange) => (exchange.response.status === 201 ? idOf(exchange.json) : undefined));
    for (const [id, carriers] of repeated) {
      check.expect(false, `expected every created animal to get its own id, got id ${id} for ${carriers.length} of them (at most ${batch.inFlight} creates in flight together)`, { rule: RULE['unique-ids'], evidence: carriers.slice(0, 2) });
    }
    repeatedFound = repeated.size > 0;
    if (repeatedFound || batch.inFlight >= CONCURRENT_CREATES || batches.length === MAX_BATCHES) break;
    stopped = await roomForAnotherBatch(api, batch, batches.length);
    if (stopped) break;
  }
  // Ids repeated however few creates were together break the rule; without, too few together leave it partly checked.
  const reached = Math.max(...batches.map((batch) => batch.inFlight));
  if (!repeatedFound && reached < CONCURRENT_CREATES) {
    check.unchecked(
      `concurrent creation was not exercised: at most ${reached} of ${BATCH_SIZE} creates were in flight together (sent before the first of them was answered) in ${batches.length} batch${batches.length === 1 ? '' : 'es'}, ${CONCURRENT_CREATES} needed${stopped ? `; ${stopped}` : ''}`,
    );
  }
});
