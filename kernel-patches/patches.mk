# Checks of the series itself, on the host: style and a compile of every
# file it touches under an allmodconfig-style configuration.
CHECK_HOST_TARGETS += kernel-checkpatch kernel-compile-test
