# A petstore-conformance quota load scenario as a Locust test: the same file for every generator.
# What to run is in petstore-run.json beside it (keys by plan and number, never by value); each generator
# reads the keys themselves from PETSTORE_API_KEY_<PLAN> (comma-separated, in key-number order).
#
# Locust's own statistics stay per operation (three names). What the verdicts need, each worker ships as it saw
# it with its regular report to the master (events.report_to_master): every answer's times, status and headers as
# sent. The master sums them once, per key and per target window (X-RateLimit-Limit and -Reset, the target's own
# words; events.worker_report), with each key's latencies as counts per bucket (two significant digits), and writes
# petstore-result.json, which `petstore-conformance load --verdicts-from` reads as sums.
# The master's memory and that file grow with keys x windows, never with requests.
import email.utils
import json
import math
import os
import random
import re
import time

import gevent
import locust.runners
from geventhttpclient.client import HTTPClient
from locust import FastHttpUser, events, task
from locust.exception import StopUser
from locust.rpc import Message
from locust.runners import LocalRunner, MasterRunner, WorkerRunner

# Debian's python3-locust 2.12 ships an empty version string, and its master then turns every worker away
# as "pre 2.0": give it the packaged version, so master and workers of that package can meet.
if not locust.runners.__version__:
    locust.runners.__version__ = "2.12.1"

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_PLAN_FILE = "petstore-run.json"
RESULT_FILE = "petstore-result.json"
RESULT_FORMAT = "petstore-locust-result/3"

# ---- the client both engines share (lib/backoff.ts, lib/rate-limit-headers.ts, harness/load/runner.ts, and
# ---- lib/rate-limiter/order.ts for the one order a generator decides: an admission after its own refusal),
# ---- checked against the same table of cases (fixtures/load/client-cases.json)

WHOLE_NUMBER = re.compile(r"^\d{1,15}$")
HTTP_DATES = (
    re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$"),
    re.compile(r"^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$"),
    re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$"),
)


def whole_number(value):
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()):
        value = value.strip()
        if not (value.isascii() and value.isdigit()):
            return None
    return int(value) if len(value) <= 15 else None


def header_text(value):
    """A header's value as one string: geventhttpclient gives a repeated header as a tuple, joined as the built-in client joins it."""
    return value if value is None or isinstance(value, str) else ", ".join(value)


def parse_http_date(value):
    text = value.strip()
    if not any(form.match(text) for form in HTTP_DATES):
        return None
    try:
        return round(email.utils.parsedate_to_datetime(text).timestamp() * 1000)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def retry_after_ms(value, now_ms):
    """How long Retry-After asks to wait (ms, never negative); None when absent or neither form."""
    if value is None:
        return None
    seconds = whole_number(value)
    if seconds is not None:
        return seconds * 1000
    date = parse_http_date(value)
    return None if date is None else max(0, date - now_ms)


def backoff_delay_ms(attempt, retry_after, base_ms, cap_ms, roll):
    """Retry-After plus exponential backoff with full jitter; `roll` is the random draw in [0, 1)."""
    ceiling = min(cap_ms, base_ms * 2 ** max(0, attempt - 1))
    return math.ceil((retry_after or 0) + roll * ceiling)


def operation_bounds(mix, operations):
    total = sum(mix[name] for name in operations)
    bounds, running = [], 0
    for name in operations:
        running += mix[name]
        bounds.append((running / total, name))
    return bounds


def pick_operation(bounds, roll):
    for bound, name in bounds:
        if roll < bound:
            return name
    return bounds[0][1]


def outcome_of(status):
    if status == 429:
        return "refused"
    if 200 <= status < 500 and status not in (401, 403, 407):
        return "admitted"
    return "error"


OUTCOMES = [outcome_of(status) for status in range(1000)]


def decided_after(answered_at, sent_at):
    """Whether a request that left at `sent_at` was decided after an answer that came back at `answered_at`, both on
    this generator's clock: it left once that answer was in (lib/rate-limiter/order.ts decidedAfter, on one clock)."""
    return sent_at >= answered_at


# ---- what the generators saw, shipped as they saw it, and summed once, by the master


def rate_limit(limit, remaining, reset):
    """The three X-RateLimit headers as whole numbers, or None when any is absent or not one (the client's reading,
    held to the shared cases like lib/rate-limit-headers.ts)."""
    numbers = (whole_number(limit), whole_number(remaining), whole_number(reset))
    return None if None in numbers else numbers


def window_of(key_index, outcome, parsed):
    """The window an answer counts in, (key, Limit, Reset); None for one no window holds: an error, headers missing or
    unreadable, or a 429 saying more is left than its Limit (kept with its headers as sent, for the checks of RL-6)."""
    if outcome == "error" or parsed is None or (outcome == "refused" and parsed[1] > parsed[0]):
        return None
    return (key_index, parsed[0], parsed[2])


class Seen:
    """One generator's answers since its last report, as it saw them: for each, the key, when it was sent and
    answered, its status, whether it was a retry, its X-RateLimit headers and Retry-After as sent, and whether it was
    admitted after this generator's own refusal in the window it names. Only that last needs this generator's order
    of answers, so only that is decided here (decided_after, held to order.ts's cases); nothing is summed or judged here (Sums, in the master, then the one
    window accountant in TypeScript, lib/rate-limiter/window-accountant.ts)."""

    def __init__(self):
        self.answers = []
        self.held_back = {}
        # When this generator was first refused in each window: kept across reports, as a window outlasts them.
        self.refused_at = {}

    def answer(self, key_index, sent, done, status, retry, limit, remaining, reset, retry_after):
        """Keeps one answer; returns its outcome and its X-RateLimit headers as numbers (or None), for the client."""
        outcome = OUTCOMES[status] if 0 < status < 1000 else "error"
        parsed = rate_limit(limit, remaining, reset) if status else None
        late = False
        window = window_of(key_index, outcome, parsed)
        if window is not None:
            if outcome == "refused":
                self.refused_at[window] = min(done, self.refused_at.get(window, math.inf))
            else:
                late = decided_after(self.refused_at.get(window, math.inf), sent)
        self.answers.append((key_index, sent, done, status, retry, limit, remaining, reset, retry_after, late))
        return outcome, parsed

    def hold_back(self, key_index):
        self.held_back[key_index] = self.held_back.get(key_index, 0) + 1

    def drain(self):
        """What was seen since the last report, as plain data for Locust's messages; the generator starts again."""
        report = {"answers": self.answers, "heldBack": [[key, count] for key, count in self.held_back.items()]}
        self.answers, self.held_back = [], {}
        return report


def wait_bucket(value, now_ms):
    """A refusal's Retry-After as the verdicts read it: "-" absent, "x:<text>" unreadable, else whole seconds in ms."""
    if value is None:
        return "-"
    waited = retry_after_ms(value, now_ms)
    if waited is None:
        return "x:" + value.strip()[:40]
    return str(int(round(waited / 1000.0)) * 1000)


def no_answers(values):
    phase = {"count": 0, "firstSent": None, "lastSent": None, "firstDone": None, "lastDone": None, "retries": 0, "statuses": {}}
    if values:
        phase["remaining"] = []
    if values == "waits":
        phase["waits"] = {}
    return phase


def add(phase, sent, done, status, retry):
    phase["count"] += 1
    phase["firstSent"] = sent if phase["firstSent"] is None else min(phase["firstSent"], sent)
    phase["lastSent"] = sent if phase["lastSent"] is None else max(phase["lastSent"], sent)
    phase["firstDone"] = done if phase["firstDone"] is None else min(phase["firstDone"], done)
    phase["lastDone"] = done if phase["lastDone"] is None else max(phase["lastDone"], done)
    phase["retries"] += 1 if retry else 0
    phase["statuses"][str(status)] = phase["statuses"].get(str(status), 0) + 1


def latency_bucket(sent, done):
    """An answer's latency as the master keeps it: whole microseconds cut to two significant digits (the low end of
    its bucket, at most 10% below), so a key's latencies are a few numbers however many answers there are."""
    micros, scale = max(0, math.floor((done - sent) * 1000)), 1
    while micros >= 100:
        micros //= 10
        scale *= 10
    return micros * scale


class Sums:
    """Every generator's answers, summed once, per key and per window (X-RateLimit-Limit and -Reset, the target's own
    words): a few numbers per window, however many answers. The answers no window holds (errors, headers missing or
    unreadable, a 429 saying more is left than its Limit) are summed by status and headers as sent."""

    def __init__(self, firm_slack_ms=None):
        # Admissions answered more than this (ms) before the Reset they name are counted as firm, per window: no kind
        # of limiter gives anything back so far ahead (the run plan's client.firmSlackMs); None counts none.
        self.firm_slack_ms = firm_slack_ms
        self.windows = {}
        self.loose = {}
        self.held_back = {}
        # Per key and outcome (admitted or refused; no error): how many answers took each latency bucket.
        self.latency = {}
        self.reporters = set()

    def merge(self, reporter, report):
        self.reporters.add(reporter)
        # Each phase's Remaining values of this report, joined to its runs once the report is summed.
        remaining = {}
        for key, sent, done, status, retry, limit, said, reset, retry_after, late in report["answers"]:
            outcome = OUTCOMES[status] if 0 < status < 1000 else "error"
            if outcome != "error":
                buckets = self.latency.setdefault((key, outcome), {})
                bucket = latency_bucket(sent, done)
                buckets[bucket] = buckets.get(bucket, 0) + 1
            parsed = rate_limit(limit, said, reset) if status else None
            where = window_of(key, outcome, parsed)
            if where is None:
                wait = wait_bucket(retry_after, done) if status == 429 else "-"
                where = (key, status, bool(retry), wait, limit, said, reset)
                if where not in self.loose:
                    self.loose[where] = {"key": key, "status": status, "retry": bool(retry), "wait": wait, "headers": {"limit": limit, "remaining": said, "reset": reset}, **no_answers(None)}
                add(self.loose[where], sent, done, status, retry)
                continue
            window = self.windows.get(where)
            if window is None:
                window = self.windows[where] = {"admitted": no_answers("remaining"), "refused": no_answers("waits"), "late": no_answers("remaining")}
                if self.firm_slack_ms is not None:
                    window["admitted"]["firm"] = window["late"]["firm"] = 0
            phase = window["refused" if outcome == "refused" else "late" if late else "admitted"]
            add(phase, sent, done, status, retry)
            if outcome == "admitted" and self.firm_slack_ms is not None and done < parsed[2] * 1000 - self.firm_slack_ms:
                phase["firm"] += 1
            # A refusal's own Remaining too: a 429 that says requests are left contradicts the window it names (RL-6).
            remaining.setdefault(id(phase), (phase, []))[1].append(parsed[1])
            if outcome == "refused":
                wait = wait_bucket(retry_after, done)
                phase["waits"][wait] = phase["waits"].get(wait, 0) + 1
        for phase, values in remaining.values():
            phase["remaining"] = merge_runs(phase["remaining"] + [[value, value, 1] for value in values])
        for key, count in report["heldBack"]:
            self.held_back[key] = self.held_back.get(key, 0) + count

    def result(self):
        """The master's result file: every generator's answers, summed per key and per target window."""
        return {
            "format": RESULT_FORMAT,
            "scenario": PLAN["scenario"] if PLAN else None,
            "generators": sorted(self.reporters),
            "heldBack": [[key, count] for key, count in sorted(self.held_back.items())],
            "windows": [{"key": key, "limit": limit, "reset": reset, **phases} for (key, limit, reset), phases in sorted(self.windows.items())],
            "loose": [entry for _, entry in sorted(self.loose.items(), key=lambda item: repr(item[0]))],
            "latency": [{"key": key, "outcome": outcome, "micros": sorted([bucket, times] for bucket, times in buckets.items())} for (key, outcome), buckets in sorted(self.latency.items())],
        }


def merge_runs(runs):
    """Remaining values as runs [highest, lowest, times], each value seen `times` times, from runs that may overlap
    (a value seen once is the run [value, value, 1]): a whole countdown is one run, however many generators saw it."""
    steps = {}
    for high, low, times in runs:
        steps[low] = steps.get(low, 0) + times
        steps[high + 1] = steps.get(high + 1, 0) - times
    merged, times, start = [], 0, None
    for value in sorted(steps):
        if times > 0 and start is not None:
            last = merged[-1] if merged else None
            if last is not None and last[2] == times and last[0] == start - 1:
                last[0] = value - 1
            else:
                merged.append([value - 1, start, times])
        times += steps[value]
        start = value
    return sorted(merged, reverse=True)


# ---- the generators

PLAN_PATH = os.path.join(HERE, RUN_PLAN_FILE)
PLAN = None
if os.path.exists(PLAN_PATH):
    with open(PLAN_PATH, encoding="utf-8") as plan_file:
        PLAN = json.load(plan_file)

SEEN = Seen()
SUMS = Sums(PLAN["client"].get("firmSlackMs") if PLAN else None)
ID_IN_BODY = re.compile(rb'"id"\s*:\s*(\d+)')
RECENT_IDS = 64
EVERY_STATUS = frozenset(range(100, 1000))
# Seconds between a worker's reports to its master (Locust's own interval).
LOCAL_MERGE_S = 3
# Seconds the master waits for the workers' last reports beyond --stop-timeout: on "quit" a worker stops its users
# first (up to --stop-timeout) and only then sends its last report, while Locust's master waits 0.5 s for it.
LAST_REPORT_MARGIN_S = 5


class LastWord:
    """The master's view of its workers' last reports: who reported, and who sent the report made after its users
    stopped, which holds everything it counted. A worker without one lost its last seconds."""

    def __init__(self):
        self.known = set()
        self.final = set()
        self.waited = False
        # On a worker: whether its users have stopped, so that what it ships now is all it counted.
        self.users_stopped = False

    def missing(self):
        return sorted(self.known - self.final)


LAST_WORD = LastWord()


@events.report_to_master.add_listener
def ship_seen(client_id, data, **_):
    report = SEEN.drain()
    report["final"] = LAST_WORD.users_stopped
    data["petstore"] = report


@events.worker_report.add_listener
def sum_seen(client_id, data, **_):
    if "petstore" in data:
        SUMS.merge(client_id, data["petstore"])
        LAST_WORD.known.add(client_id)
        if data["petstore"].get("final"):
            LAST_WORD.final.add(client_id)


@events.test_start.add_listener
def users_running(**_):
    LAST_WORD.users_stopped = False


@events.test_stop.add_listener
def users_stopped(**_):
    LAST_WORD.users_stopped = True


def await_last_reports(runner):
    """Asks every worker to quit and waits, bounded, until each has sent the report it makes once its users stopped.
    Locust's own quit sends the same message and waits 0.5 s, less than a worker may take to stop its users."""
    if LAST_WORD.waited:
        return
    LAST_WORD.waited = True
    runner.stop(send_stop_to_client=False)
    workers = [client.id for client in runner.clients.all]
    LAST_WORD.known.update(workers)
    for worker in workers:
        runner.server.send_to_client(Message("quit", None, worker))
    deadline = time.monotonic() + (runner.environment.stop_timeout or 0) + LAST_REPORT_MARGIN_S
    while LAST_WORD.missing() and time.monotonic() < deadline:
        gevent.sleep(0.1)


@events.init.add_listener
def quit_after_last_reports(environment, **_):
    runner = environment.runner
    if not isinstance(runner, MasterRunner):
        return
    locust_quit = runner.quit

    def quit():
        await_last_reports(runner)
        locust_quit()

    runner.quit = quit


@events.test_start.add_listener
def merge_locally(environment, **_):
    """Without a master (locust --headless alone), sum what this process saw as often as a worker would report
    it, so its memory grows with windows, not with requests."""
    if not isinstance(environment.runner, LocalRunner):
        return

    def merge_every_report_interval():
        while True:
            gevent.sleep(LOCAL_MERGE_S)
            SUMS.merge("local", SEEN.drain())

    gevent.spawn(merge_every_report_interval)


@events.quitting.add_listener
def write_result(environment, **_):
    runner = environment.runner
    if PLAN is None or isinstance(runner, WorkerRunner):
        return
    if isinstance(runner, MasterRunner):
        # Stopped by a signal rather than at the run time: the workers have not been asked to quit yet.
        await_last_reports(runner)
    else:
        SUMS.merge("local", SEEN.drain())
    result = SUMS.result()
    result["withoutLastReport"] = LAST_WORD.missing()
    path = os.path.join(HERE, RESULT_FILE)
    with open(path + ".part", "w", encoding="utf-8") as out:
        json.dump(result, out, separators=(",", ":"))
    os.replace(path + ".part", path)


class KeyState:
    """One key's client on this generator, shared by its users: the backoff after a 429 and the budget left."""

    def __init__(self):
        self.attempts = 0
        self.paused_until = 0.0
        # Whether the pause is the wait a 429's Retry-After gave: only a request sent after such a wait is a retry.
        self.paused_by_retry_after = False
        self.remaining = None
        self.reset_s = 0
        self.in_flight = 0
        self.recent_ids = []
        self.next_id = 0


KEYS_BY_VARIABLE = {}


def keys_in(variable):
    """PETSTORE_API_KEY_<PLAN>'s keys, read once per generator however many users take them."""
    if variable not in KEYS_BY_VARIABLE:
        KEYS_BY_VARIABLE[variable] = [key.strip() for key in os.environ.get(variable, "").split(",") if key.strip()]
    return KEYS_BY_VARIABLE[variable]


# geventhttpclient writes a request again, on another connection, when the one it went out on closed before any answer
# (HTTPClient.request): a reset after the target took the request leaves it counted twice and answered once. Each
# greenlet's writings of its request are counted here, so the first of a request written again is kept as a lost answer.
WRITINGS = {}
_request_as_written = HTTPClient.request


def counted_request(client, *args, **kwargs):
    pool = client._connection_pool
    current = gevent.getcurrent()

    def get_socket():
        WRITINGS[current] = WRITINGS.get(current, 0) + 1
        return type(pool).get_socket(pool)

    pool.get_socket = get_socket
    try:
        return _request_as_written(client, *args, **kwargs)
    finally:
        del pool.get_socket


HTTPClient.request = counted_request


class KeyUser(FastHttpUser):
    """A user of one group of keys: on each generator, its users take the group's keys in turn."""

    abstract = True
    group_index = 0
    states = {}
    taken = {}

    def wait_time(self):
        return 0

    def on_start(self):
        spec = PLAN["keys"][self.group_index]
        offset = KeyUser.taken.get(self.group_index, 0)
        KeyUser.taken[self.group_index] = offset + 1
        offset %= spec["count"]
        self.key_index = spec["index"] + offset
        keys = keys_in(spec["keyVariable"])
        if len(keys) < spec["keyNumber"] + offset:
            raise StopUser()
        authorization = {"Authorization": "Bearer " + keys[spec["keyNumber"] + offset - 1]}
        self.requests = {
            name: (operation["method"], operation["path"], operation["name"], operation["body"], {**authorization, **operation["headers"]})
            for name, operation in CLIENT["operations"].items()
        }
        # Every status is an answer to count, never an error: geventhttpclient would raise for each 429, formatting the
        # whole exchange into the error, and Locust would book it as a failure. A redirect is an answer too (never
        # followed: the key stays with the target).
        self.client.client.valid_response_codes = EVERY_STATUS
        self.compliant = spec["behaviour"] == "compliant"
        self.state = KeyUser.states.setdefault(self.key_index, KeyState())
        self.random = random.Random(None if PLAN["seed"] is None else PLAN["seed"] * 100003 + self.key_index * 101 + KeyUser.taken[self.group_index])
        self.bounds = operation_bounds(spec["mix"], [name for name in CLIENT["operations"]])
        self.end = time.time() + PLAN["durationS"]
        rate = spec["perSecond"]
        self.interval = None if rate is None else PLAN["usersPerKey"] / rate
        self.next_at = time.time() + (0 if self.interval is None else self.random.random() * self.interval)

    @task
    def send(self):
        state = self.state
        if self.interval is not None:
            delay = self.next_at - time.time()
            if delay > 0:
                # Never past the user's end: a user asleep in its task holds up the worker's last report.
                gevent.sleep(max(0, min(delay, self.end - time.time())))
            self.next_at += self.interval
        now = time.time()
        if now >= self.end:
            raise StopUser()
        after_pause = False
        if state.paused_until:
            if state.paused_until > now:
                if self.interval is None:
                    gevent.sleep(min(state.paused_until, self.end) - now)
                else:
                    SEEN.hold_back(self.key_index)
                return
            state.paused_until = 0.0
            after_pause = self.interval is not None
        elif self.compliant and self.interval is not None and state.remaining is not None and state.in_flight > 0 and state.remaining - state.in_flight <= 0 and now < state.reset_s:
            SEEN.hold_back(self.key_index)
            return
        retry = after_pause and state.paused_by_retry_after
        operation = pick_operation(self.bounds, self.random.random())
        method, path, name, body, headers = self.requests[operation]
        if operation == "get":
            ids = state.recent_ids
            path = path.replace("{petId}", ids[state.next_id % len(ids)] if ids else "1")
            state.next_id += 1
        state.in_flight += 1
        sent = time.time()
        WRITINGS.pop(gevent.getcurrent(), None)
        response = self.client.request(method, path, name=name, data=body, headers=headers, allow_redirects=False)
        state.in_flight -= 1
        done = time.time()
        if WRITINGS.pop(gevent.getcurrent(), 1) > 1:
            # Written again: its first writing got no answer, and the target may have taken and counted it.
            SEEN.answer(self.key_index, sent * 1000, done * 1000, 0, False, None, None, None, None)
        status = response.status_code or 0
        received = response.headers if status else None
        retry_after = None
        if received is None:
            outcome, parsed = SEEN.answer(self.key_index, sent * 1000, done * 1000, 0, retry, None, None, None, None)
        else:
            get = received.get
            if status == 429:
                retry_after = header_text(get("Retry-After"))
            outcome, parsed = SEEN.answer(self.key_index, sent * 1000, done * 1000, status, retry, header_text(get("X-RateLimit-Limit")), header_text(get("X-RateLimit-Remaining")), header_text(get("X-RateLimit-Reset")), retry_after)
        if operation == "create" and status == 201:
            found = ID_IN_BODY.search(response.content or b"")
            if found:
                state.recent_ids = (state.recent_ids + [found.group(1).decode()])[-RECENT_IDS:]
        if not self.compliant:
            return
        if outcome == "admitted":
            state.attempts = 0
            if parsed:
                state.remaining, state.reset_s = parsed[1], parsed[2]
            return
        if status == 401:
            return
        if after_pause or not state.paused_until:
            state.attempts += 1
        waited = retry_after_ms(retry_after, done * 1000) if status == 429 else None
        backoff = CLIENT["backoff"]
        until = done + backoff_delay_ms(state.attempts, waited, backoff["baseMs"], backoff["capMs"], self.random.random()) / 1000
        if until > state.paused_until:
            state.paused_until = until
            state.paused_by_retry_after = waited is not None


CLIENT = PLAN["client"] if PLAN else None
for index, _group in enumerate(PLAN["keys"] if PLAN else []):
    globals()["Keys%d" % index] = type("Keys%d" % index, (KeyUser,), {"group_index": index, "fixed_count": PLAN["usersPerKey"] * _group["count"]})
