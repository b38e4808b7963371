# A petstore-conformance quota load scenario as a Locust test: the same file for every generator.
# What to run is in petstore-run.json beside it (keys by plan and number, never by value); each generator
# reads the keys themselves from PETSTORE_API_KEY_<PLAN> (comma-separated, in key-number order).
#
# Locust's own statistics stay per operation (three names). What the verdicts need is summed in each worker
# per key and per target window (X-RateLimit-Limit and -Reset, the target's own words), shipped with the
# worker's regular report to the master (events.report_to_master), merged there (events.worker_report) and
# written by the master to petstore-result.json, which `petstore-conformance load --verdicts-from` judges.
# The master's memory and that file grow with keys x windows, never with requests.
import collections
import email.utils
import itertools
import json
import math
import os
import random
import re
import time

import gevent
import locust.runners
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
RESULT_FORMAT = "petstore-locust-result/2"

# ---- the client both engines share (lib/backoff.ts, lib/rate-limit-headers.ts, harness/load/runner.ts),
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


# ---- what the verdicts need, summed per key and per target window


def wait_bucket(value, now_ms):
    """A refusal's Retry-After as the verdicts read it: "-" absent, "x:<text>" unreadable, else whole seconds in ms."""
    if value is None:
        return "-"
    waited = retry_after_ms(value, now_ms)
    if waited is None:
        return "x:" + value.strip()[:40]
    return str(int(round(waited / 1000.0)) * 1000)


class Phase:
    """Answers of one kind in a generator since its last report: when each was sent and answered, its status and
    value, kept as they come (appending is all a request costs) and summed once per report."""

    __slots__ = ("sent", "done", "statuses", "retries", "values")

    def __init__(self):
        self.sent = []
        self.done = []
        self.statuses = []
        self.retries = 0
        self.values = []

    def note(self, sent, done, status, retry, value):
        self.sent.append(sent)
        self.done.append(done)
        self.statuses.append(status)
        if retry:
            self.retries += 1
        if value is not None:
            self.values.append(value)

    def shipped(self, values):
        """As plain data: Remaining values as runs, or a refusal's Retry-After bucket counted and its own Remaining as runs."""
        sent, done = self.sent, self.done
        seen = bool(sent)
        out = {
            "count": len(sent),
            "firstSent": min(sent) if seen else None,
            "lastSent": max(sent) if seen else None,
            "firstDone": min(done) if seen else None,
            "lastDone": max(done) if seen else None,
            "latencyMs": math.fsum(done) - math.fsum(sent),
            "retries": self.retries,
            "statuses": {str(status): count for status, count in collections.Counter(self.statuses).items()},
        }
        if values == "remaining":
            out["remaining"] = runs_of(self.values)
        elif values == "waits":
            out["waits"] = dict(collections.Counter(wait for wait, _ in self.values))
            out["remaining"] = runs_of([remaining for _, remaining in self.values])
        return out


class Tally:
    """One generator's answers since its last report, summed by key, Limit and Reset; the rest loose.

    Only the worker-side summing: what is shipped is counted, never judged here. The windows are grouped and
    judged once, in TypeScript, by the one window accountant (lib/rate-limiter/window-accountant.ts).
    """

    def __init__(self):
        self.windows = {}
        self.loose = {}
        self.held_back = {}
        # When this generator was first refused in each window: kept across reports, as a window outlasts them.
        self.refused_at = {}
        self.last_texts = (None, None)
        self.last_numbers = (None, None)

    def answer(self, key_index, sent, done, status, retry, limit, remaining, reset, retry_after):
        """Counts one answer; returns its outcome and its X-RateLimit headers as numbers (or None)."""
        outcome = OUTCOMES[status] if 0 < status < 1000 else "error"
        parsed = self.read(limit, remaining, reset) if status else None
        # A 429 whose Remaining exceeds its Limit keeps its headers as sent, for the checks of RL-6.
        if outcome == "error" or parsed is None or (outcome == "refused" and parsed[1] > parsed[0]):
            wait = wait_bucket(retry_after, done) if status == 429 else "-"
            where = (key_index, status, bool(retry), wait, limit, remaining, reset)
            phase = self.loose.get(where)
            if phase is None:
                phase = self.loose[where] = Phase()
            phase.note(sent, done, status, retry, None)
            return outcome, parsed
        where = (key_index, parsed[0], parsed[2])
        window = self.windows.get(where)
        if window is None:
            window = self.windows[where] = (Phase(), Phase(), Phase())
        admitted, refused, late = window
        if outcome == "refused":
            # Its own Remaining too: a 429 that says requests are left contradicts the window it names (RL-6).
            refused.note(sent, done, status, retry, (wait_bucket(retry_after, done), parsed[1]))
            if done < self.refused_at.get(where, math.inf):
                self.refused_at[where] = done
        elif sent > self.refused_at.get(where, math.inf):
            # Admitted after this generator had been refused in the same window: requests aged out of it.
            late.note(sent, done, status, retry, parsed[1])
        else:
            admitted.note(sent, done, status, retry, parsed[1])
        return outcome, parsed

    def read(self, limit, remaining, reset):
        """The three X-RateLimit headers as whole numbers, or None when any is absent or not one. The last Limit and
        Reset read are remembered: a window's answers repeat them."""
        if limit != self.last_texts[0] or reset != self.last_texts[1]:
            self.last_texts = (limit, reset)
            self.last_numbers = (whole_number(limit), whole_number(reset))
        limit_number, reset_number = self.last_numbers
        remaining_number = whole_number(remaining)
        if limit_number is None or remaining_number is None or reset_number is None:
            return None
        return limit_number, remaining_number, reset_number

    def hold_back(self, key_index):
        self.held_back[key_index] = self.held_back.get(key_index, 0) + 1

    def drain(self):
        """What was counted since the last report, as plain data for Locust's messages; the tally starts again."""
        report = {
            "windows": [
                [key, limit, reset, {"admitted": admitted.shipped("remaining"), "refused": refused.shipped("waits"), "late": late.shipped("remaining")}]
                for (key, limit, reset), (admitted, refused, late) in self.windows.items()
            ],
            "loose": [
                {"key": key, "status": status, "retry": retry, "wait": wait, "headers": {"limit": limit, "remaining": remaining, "reset": reset}, **phase.shipped(None)}
                for (key, status, retry, wait, limit, remaining, reset), phase in self.loose.items()
            ],
            "heldBack": [[key, count] for key, count in self.held_back.items()],
        }
        self.windows, self.loose, self.held_back = {}, {}, {}
        return report


def merge_phase(into, phase):
    into["count"] += phase["count"]
    for name, pick in (("firstSent", min), ("lastSent", max), ("firstDone", min), ("lastDone", max)):
        if phase[name] is not None:
            into[name] = phase[name] if into[name] is None else pick(into[name], phase[name])
    into["latencyMs"] += phase["latencyMs"]
    into["retries"] += phase["retries"]
    for status, count in phase["statuses"].items():
        into["statuses"][status] = into["statuses"].get(status, 0) + count
    if "remaining" in phase:
        into["remaining"] = merge_runs(into["remaining"] + phase["remaining"])
    if "waits" in phase:
        for wait, count in phase["waits"].items():
            into["waits"][wait] = into["waits"].get(wait, 0) + count


def empty_phase(values):
    return Phase().shipped(values)


class Merged:
    """Every generator's reports, merged per key and per window: a few numbers per window, however many answers."""

    def __init__(self):
        self.windows = {}
        self.loose = {}
        self.held_back = {}
        self.reporters = set()

    def merge(self, reporter, report):
        self.reporters.add(reporter)
        for key, limit, reset, phases in report["windows"]:
            window = self.windows.get((key, limit, reset))
            if window is None:
                window = self.windows[(key, limit, reset)] = {"admitted": empty_phase("remaining"), "refused": empty_phase("waits"), "late": empty_phase("remaining")}
            for name, phase in phases.items():
                merge_phase(window[name], phase)
        for entry in report["loose"]:
            headers = entry["headers"]
            where = (entry["key"], entry["status"], entry["retry"], entry["wait"], headers["limit"], headers["remaining"], headers["reset"])
            if where not in self.loose:
                self.loose[where] = {**entry, **empty_phase(None)}
            merge_phase(self.loose[where], entry)
        for key, count in report["heldBack"]:
            self.held_back[key] = self.held_back.get(key, 0) + count

    def result(self):
        """The master's result file: every generator's answers, merged per key and per target window."""
        return {
            "format": RESULT_FORMAT,
            "scenario": PLAN["scenario"] if PLAN else None,
            "generators": sorted(self.reporters),
            "heldBack": [[key, count] for key, count in sorted(self.held_back.items())],
            "windows": [{"key": key, "limit": limit, "reset": reset, **phases} for (key, limit, reset), phases in sorted(self.windows.items())],
            "loose": [entry for _, entry in sorted(self.loose.items(), key=lambda item: repr(item[0]))],
        }


def runs_of(values):
    """Remaining values as runs [highest, lowest, times], each value seen `times` times: a whole countdown is one run."""
    runs = []
    high = low = times = None
    for value, group in itertools.groupby(sorted(values, reverse=True)):
        seen = sum(1 for _ in group)
        if seen == times and value == low - 1:
            low = value
            continue
        if times is not None:
            runs.append([high, low, times])
        high = low = value
        times = seen
    if times is not None:
        runs.append([high, low, times])
    return runs


def merge_runs(runs):
    """Sums runs that may overlap into runs that do not, joining neighbours seen equally often."""
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

TALLY = Tally()
MERGED = Merged()
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
def ship_tally(client_id, data, **_):
    report = TALLY.drain()
    report["final"] = LAST_WORD.users_stopped
    data["petstore"] = report


@events.worker_report.add_listener
def merge_tally(client_id, data, **_):
    if "petstore" in data:
        MERGED.merge(client_id, data["petstore"])
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
    """Without a master (locust --headless alone), merge this process's tally as often as a worker would report
    it, so its memory grows with windows, not with requests."""
    if not isinstance(environment.runner, LocalRunner):
        return

    def merge_every_report_interval():
        while True:
            gevent.sleep(LOCAL_MERGE_S)
            MERGED.merge("local", TALLY.drain())

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
        MERGED.merge("local", TALLY.drain())
    result = MERGED.result()
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
        retry = False
        if state.paused_until:
            if state.paused_until > now:
                if self.interval is None:
                    gevent.sleep(min(state.paused_until, self.end) - now)
                else:
                    TALLY.hold_back(self.key_index)
                return
            state.paused_until = 0.0
            retry = self.interval is not None
        elif self.compliant and self.interval is not None and state.remaining is not None and state.in_flight > 0 and state.remaining - state.in_flight <= 0 and now < state.reset_s:
            TALLY.hold_back(self.key_index)
            return
        operation = pick_operation(self.bounds, self.random.random())
        method, path, name, body, headers = self.requests[operation]
        if operation == "get":
            ids = state.recent_ids
            path = path.replace("{petId}", ids[state.next_id % len(ids)] if ids else "1")
            state.next_id += 1
        state.in_flight += 1
        sent = time.time()
        response = self.client.request(method, path, name=name, data=body, headers=headers, allow_redirects=False)
        state.in_flight -= 1
        done = time.time()
        status = response.status_code or 0
        received = response.headers if status else None
        retry_after = None
        if received is None:
            outcome, parsed = TALLY.answer(self.key_index, sent * 1000, done * 1000, 0, retry, None, None, None, None)
        else:
            get = received.get
            if status == 429:
                retry_after = header_text(get("Retry-After"))
            outcome, parsed = TALLY.answer(self.key_index, sent * 1000, done * 1000, status, retry, header_text(get("X-RateLimit-Limit")), header_text(get("X-RateLimit-Remaining")), header_text(get("X-RateLimit-Reset")), retry_after)
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
        if retry or not state.paused_until:
            state.attempts += 1
        waited = retry_after_ms(retry_after, done * 1000) if status == 429 else None
        backoff = CLIENT["backoff"]
        until = done + backoff_delay_ms(state.attempts, waited, backoff["baseMs"], backoff["capMs"], self.random.random()) / 1000
        state.paused_until = max(state.paused_until, until)


CLIENT = PLAN["client"] if PLAN else None
for index, _group in enumerate(PLAN["keys"] if PLAN else []):
    globals()["Keys%d" % index] = type("Keys%d" % index, (KeyUser,), {"group_index": index, "fixed_count": PLAN["usersPerKey"] * _group["count"]})
