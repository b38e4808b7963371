"""Locust's client, what its workers ship and what its master sums (harness/load/engine/locustfile.py), run by
locustfile.spec.ts.

The client is held to the table both engines' clients must pass (fixtures/load/client-cases.json); the workers'
answers, shipped as seen, to what the master must write: every generator's answers summed per key and per target
window, in a size that grows with windows, never with requests.
"""
import json
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "harness", "load", "engine"))

import locustfile  # noqa: E402

with open(os.path.join(ROOT, "fixtures", "load", "client-cases.json"), encoding="utf-8") as cases_file:
    CASES = json.load(cases_file)

OPERATIONS = ["list", "create", "get"]
RESET = 1795687260


class ClientCases(unittest.TestCase):
    def test_backoff(self):
        for case in CASES["backoff"]:
            with self.subTest(case=case):
                self.assertEqual(locustfile.backoff_delay_ms(case["attempt"], case["retryAfterMs"], 250, 30000, case["roll"]), case["waitMs"])

    def test_retry_after(self):
        for case in CASES["retryAfter"]:
            with self.subTest(case=case):
                self.assertEqual(locustfile.retry_after_ms(case["value"], case["nowMs"]), case["waitMs"])

    def test_rate_limit_headers(self):
        for case in CASES["rateLimit"]:
            with self.subTest(case=case):
                parsed = locustfile.rate_limit(case["limit"], case["remaining"], case["reset"])
                self.assertEqual(list(parsed) if parsed else None, case["parsed"])

    def test_operation_mix(self):
        for case in CASES["operations"]:
            with self.subTest(case=case):
                self.assertEqual(locustfile.pick_operation(locustfile.operation_bounds(case["mix"], OPERATIONS), case["roll"]), case["operation"])

    def test_repeated_headers_are_joined_as_the_built_in_client_joins_them(self):
        self.assertEqual(locustfile.header_text(("60", "60")), "60, 60")
        self.assertEqual(locustfile.header_text("60"), "60")
        self.assertIsNone(locustfile.header_text(None))
        self.assertIsNone(locustfile.rate_limit(locustfile.header_text(("60", "60")), "59", str(RESET)))

    def test_outcomes(self):
        for case in CASES["outcome"]:
            with self.subTest(case=case):
                self.assertEqual(locustfile.OUTCOMES[case["status"]], case["outcome"])

    def test_decided_after_on_one_clock(self):
        for case in CASES["order"]:
            with self.subTest(case=case):
                self.assertEqual(locustfile.decided_after(case["answeredAt"], case["sentAt"]), case["after"])


def answer(tally, remaining, status=200, sent=1000.0, retry_after=None, limit="60", reset=str(RESET), retry=False):
    return tally.answer(0, sent, sent + 2, status, retry, limit, None if remaining is None else str(remaining), reset, retry_after)


def merged(worker):
    master = locustfile.Sums()
    master.merge("worker", worker.drain())
    return master.result()


class WorkersAndMaster(unittest.TestCase):
    def test_two_workers_countdown_merges_into_one_run(self):
        workers = [locustfile.Seen(), locustfile.Seen()]
        for remaining in range(59, -1, -1):
            answer(workers[remaining % 2], remaining, sent=1000.0 + (59 - remaining))
        for worker in workers:
            answer(worker, 0, status=429, sent=1100.0, retry_after="1")
        master = locustfile.Sums()
        for name, worker in zip("ab", workers):
            master.merge(name, json.loads(json.dumps(worker.drain())))
        result = master.result()
        self.assertEqual(result["generators"], ["a", "b"])
        self.assertEqual(result["format"], "petstore-locust-result/3")
        [window] = result["windows"]
        self.assertEqual((window["limit"], window["reset"]), (60, RESET))
        self.assertEqual(window["admitted"]["count"], 60)
        self.assertEqual(window["admitted"]["remaining"], [[59, 0, 1]])
        self.assertEqual((window["admitted"]["firstSent"], window["admitted"]["lastSent"]), (1000.0, 1059.0))
        self.assertEqual(window["refused"]["count"], 2)
        self.assertEqual(window["refused"]["waits"], {"1000": 2})
        self.assertEqual(window["refused"]["remaining"], [[0, 0, 2]])
        self.assertEqual(window["late"]["count"], 0)

    def test_latencies_are_counted_per_key_and_outcome_in_buckets_of_two_significant_digits(self):
        worker = locustfile.Seen()
        for took in (2.0, 2.04, 2.1, 41.3):
            worker.answer(0, 1000.0, 1000.0 + took, 200, False, "60", "59", str(RESET), None)
        worker.answer(0, 1000.0, 1001.5, 429, False, "60", "0", str(RESET), "1")
        worker.answer(0, 1000.0, 1900.0, 0, False, None, None, None, None)
        self.assertEqual(merged(worker)["latency"], [
            {"key": 0, "outcome": "admitted", "micros": [[2000, 2], [2100, 1], [41000, 1]]},
            {"key": 0, "outcome": "refused", "micros": [[1500, 1]]},
        ])

    def test_a_refusal_ships_the_remaining_it_said(self):
        worker = locustfile.Seen()
        answer(worker, 5, status=429, retry_after="1")
        answer(worker, 0, status=429, retry_after="1")
        [window] = merged(worker)["windows"]
        self.assertEqual(window["refused"]["remaining"], [[5, 5, 1], [0, 0, 1]])

    def test_a_value_handed_out_twice_stays_visible(self):
        master = locustfile.Sums()
        for values in ([59, 58, 30], [57, 30, 29]):
            worker = locustfile.Seen()
            for value in values:
                answer(worker, value)
            master.merge("worker", worker.drain())
        [window] = master.result()["windows"]
        self.assertEqual(window["admitted"]["remaining"], [[59, 57, 1], [30, 30, 2], [29, 29, 1]])

    def test_values_are_summed_as_runs_of_equal_counts(self):
        singles = [[value, value, 1] for value in [5, 4, 3, 3, 2, 9, 8]]
        self.assertEqual(locustfile.merge_runs(singles), [[9, 8, 1], [5, 4, 1], [3, 3, 2], [2, 2, 1]])
        self.assertEqual(locustfile.merge_runs([]), [])

    def test_master_holds_a_window_in_a_few_numbers_however_many_reports(self):
        master = locustfile.Sums()
        for report in range(200):
            worker = locustfile.Seen()
            for value in range(report * 50, report * 50 + 50):
                answer(worker, value, limit="1000000000")
            master.merge("worker %d" % (report % 2), worker.drain())
        [window] = master.result()["windows"]
        self.assertEqual(window["admitted"]["count"], 10000)
        self.assertEqual(window["admitted"]["remaining"], [[9999, 0, 1]])
        self.assertLess(len(json.dumps(master.result())), 1000)

    def test_admitted_after_own_refusal_is_late(self):
        worker = locustfile.Seen()
        answer(worker, 0, sent=1000.0)
        answer(worker, 0, status=429, sent=1001.0, retry_after="1")
        answer(worker, 5, sent=1010.0)
        [window] = merged(worker)["windows"]
        self.assertEqual((window["admitted"]["count"], window["refused"]["count"], window["late"]["count"]), (1, 1, 1))
        self.assertEqual(window["late"]["remaining"], [[5, 5, 1]])

    def test_admissions_answered_more_than_the_slack_before_their_reset_are_firm(self):
        worker = locustfile.Seen()
        for before_ms in (10000.0, 3000.0, 1500.0):
            answer(worker, 5, sent=RESET * 1000 - before_ms)
        report = worker.drain()
        master = locustfile.Sums(2000)
        master.merge("worker", json.loads(json.dumps(report)))
        [window] = master.result()["windows"]
        self.assertEqual((window["admitted"]["count"], window["admitted"]["firm"], window["late"]["firm"]), (3, 2, 0))
        # Without a slack (a run plan of an earlier version), nothing is counted firm, and no count is shipped.
        unplanned = locustfile.Sums()
        unplanned.merge("worker", report)
        self.assertNotIn("firm", unplanned.result()["windows"][0]["admitted"])

    def test_answers_outside_any_window_keep_status_and_headers(self):
        worker = locustfile.Seen()
        answer(worker, None, status=429, retry_after="soon")
        answer(worker, 59, status=503)
        worker.answer(0, 1.0, 2.0, 0, False, None, None, None, None)
        worker.hold_back(0)
        result = merged(worker)
        self.assertEqual(result["windows"], [])
        loose = sorted((entry["status"], entry["wait"], entry["headers"]["remaining"], entry["count"]) for entry in result["loose"])
        self.assertEqual(loose, [(0, "-", None, 1), (429, "x:soon", None, 1), (503, "-", "59", 1)])
        self.assertEqual(result["heldBack"], [[0, 1]])

    def test_admitted_after_own_refusal_is_late_in_a_later_report_too(self):
        worker = locustfile.Seen()
        answer(worker, 0, status=429, sent=1001.0, retry_after="1")
        worker.drain()
        answer(worker, 0, sent=1010.0)
        [window] = merged(worker)["windows"]
        self.assertEqual((window["admitted"]["count"], window["late"]["count"]), (0, 1))

    def test_drain_starts_again(self):
        worker = locustfile.Seen()
        answer(worker, 59)
        self.assertEqual(len(worker.drain()["answers"]), 1)
        self.assertEqual(worker.drain(), {"answers": [], "heldBack": []})

    def test_a_worker_ships_its_answers_as_seen(self):
        worker = locustfile.Seen()
        answer(worker, 0, sent=1000.0)
        answer(worker, " 7", status=429, sent=1001.0, retry_after="Wed, 21 Oct 2015 07:28:00 GMT")
        self.assertEqual(worker.drain()["answers"], [
            (0, 1000.0, 1002.0, 200, False, "60", "0", str(RESET), None, False),
            (0, 1001.0, 1003.0, 429, False, "60", " 7", str(RESET), "Wed, 21 Oct 2015 07:28:00 GMT", False),
        ])


if __name__ == "__main__":
    unittest.main()
