/** The load harness's view of the rate-limiter model: window accounting of one key's observations (lib/rate-limiter/account.ts). */
export { accountKey, classOf, minuteLengthOf, RUN_SLACK_MS, withinOneMinute, type Ban, type KeyAccount, type QuotaWindow, type WindowClass, type WindowLength, type WindowModel } from '../../lib/rate-limiter/account.ts';
