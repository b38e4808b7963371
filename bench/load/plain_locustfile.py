# Plain Locust, the yardstick of the Locust engine's cost (bench/load/engines.ts): FastHttpUser, one GET per
# task, no checks, no waits; the key from PETSTORE_API_KEY_ENTERPRISE.
import os

import locust.runners
from locust import FastHttpUser, task

# Debian's python3-locust 2.12 ships an empty version string (see harness/load/engine/locustfile.py).
if not locust.runners.__version__:
    locust.runners.__version__ = "2.12.1"

HEADERS = {"Authorization": "Bearer " + os.environ.get("PETSTORE_API_KEY_ENTERPRISE", "").split(",")[0]}


class Plain(FastHttpUser):
    def wait_time(self):
        return 0

    @task
    def list_pets(self):
        self.client.get("/pets?limit=20", headers=HEADERS, name="GET /pets")
