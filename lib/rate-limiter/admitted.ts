/**
 * Whether an answer counts towards a quota: the one meaning of "admitted" for the suite, the load harness, the
 * Locust engine and the judge. Admitted means the limiter let the request through, whatever the operation then
 * answered: 400 and 404 count against the quota like 200 and 201. 401, 403 and 407 (the key was not accepted) and
 * 5xx (the target failed, or a gateway in front of it) are no admission: nothing shows the limiter counted them.
 */
export type Outcome = 'admitted' | 'refused' | 'error';

export function outcomeOf(status: number): Outcome {
  if (status === 429) return 'refused';
  if (status >= 200 && status < 500 && status !== 401 && status !== 403 && status !== 407) return 'admitted';
  return 'error';
}
