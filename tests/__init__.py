"""The test suite, as a package: helpers import as ``tests.conftest``, ``tests.tiny``, ``tests.chapter_runner``;
the book's helpers as ``book._code``. Scripts run from the repository root: ``python -m tests.check_student``."""
