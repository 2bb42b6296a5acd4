# SPDX-License-Identifier: GPL-2.0
# Shared by plots/bench-*.gp: terminal from fmt (png or svg), output file
# out.".".fmt.  Callers set out= and fmt=.
if (!exists("out")) { print "set out='.../figure-name' (no extension)"; exit status 2 }
if (!exists("fmt")) fmt = "png"
if (fmt eq "svg") {
    set terminal svg size 900,500 dynamic enhanced font "sans,11"
} else {
    set terminal pngcairo size 900,500 enhanced font "sans,10"
}
set output out.".".fmt
set datafile separator ","
set grid
