import os

from hypothesis import HealthCheck, settings

# Deterministic by default so CI is reproducible; CASTELL_HYPOTHESIS=dev explores more.
settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=300)
settings.load_profile(os.environ.get("CASTELL_HYPOTHESIS", "ci"))
