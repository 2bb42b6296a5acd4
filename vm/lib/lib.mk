# SPDX-License-Identifier: GPL-2.0
# vm/lib: what the whole project uses (included by the top Makefile).

.PHONY: deps-check
# install-deps.sh's pin of linux-source-6.1, tested without touching the
# installed package (dry run, dpkg's and apt's answers stood in for).
deps-check:
	@vm/lib/test-install-deps.sh

CHECK_HOST_TARGETS += deps-check
HELP_LINES += "deps-check  install-deps.sh's kernel source pin and its messages (no apt-get)"
