# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-arrays.sh - the measure "arrays" (bench/measures/measures.sh): md
# RAID0 and dm-linear arrays of modelled disks, one run tree of
# bench/runners/arrays.sh (not a scenario of bench/jobs/scenarios: its own run, its own
# page), made by bench/measures/arrays-summarise.sh with these functions.
# arrays_summarise OUT: bench/runners/arrays.sh's runs ($BUILD/bench/arrays/
# $(basename OUT)/LAYOUT-N/runR/ or ARRAYS_RAW, the members' traces;
# OUT/arrays-env.txt) into medians with
# min-max over the runs, the figures and the page:
#   arrays-runs.csv       layout,members,run, then hc-arraytrace's columns:
#                         every run, member, class and phase
#   arrays-agree.csv      layout,members,run,agree: 1 when the run's traces
#                         and its FIEMAP through the layout give the same
#                         bytes per class, member and third
#   arrays-placement.csv  layout,members,class,member,mib_t0,mib_t1,mib_t2,...
#                         MiB of each class per third of each member (seq
#                         phase, members' traces); member "all" adds them;
#                         mb_s_tN: MB/s of the sequential reads there
#                         (bytes_tN / drive_tN_us; empty under 1 MiB)
#   arrays-perf.csv       layout,members,class,seq_mb_s(,_min,_max),
#                         rand_p50_ms(,_min,_max),rand_p99_ms,rand_mean_ms,
#                         rand_seek_ms,rand_cyl (mean seek time and distance
#                         of the random reads),runs
#                         seq: the phase's bytes over the array's drive
#                         time: the busiest member's drive_us on RAID0,
#                         the members' added on dm-linear; rand: service (end_us - start_us) of
#                         every member's reads pooled, per run, then the
#                         median over the runs
#   arrays-guest.csv      layout,members,class,phase,guest_med,_min,_max,runs:
#                         the guest's clock (hc-arrayload): seq MB/s, rand
#                         mean ms per read, beside the disk's
#   arrays-fig-{seq,rand}.csv, figures/arrays-{seq,rand}.png (plots/arrays.gp)
#   RESULTS.md            arrays_page
# Exit status 0; 1 when a stage failed (named); 2 on bad input.

arrays_files() { echo arrays-placement.csv arrays-perf.csv arrays-guest.csv; }

arrays_summarise() {
	runs_csv=$out/arrays-runs.csv
	raw=${ARRAYS_RAW:-${BUILD:-$top/build}/bench/arrays/$(basename "$out")}
	trace_tool=${BUILD:-$top/build}/arrays/hc-arraytrace
	[ -s "$out/arrays-env.txt" ] || { echo "bench/measures/arrays-summarise.sh: '$out/arrays-env.txt' missing (bench/runners/arrays.sh writes it)" >&2; exit 2; }
	[ -x "$trace_tool" ] || { echo "bench/measures/arrays-summarise.sh: $trace_tool missing: make arrays-tools" >&2; exit 2; }
	disk_size=$(sed -n 's/^disk_size=//p' "$out/arrays-env.txt")
	[ -n "$disk_size" ] || { echo "bench/measures/arrays-summarise.sh: no disk_size= in '$out/arrays-env.txt'" >&2; exit 2; }
	command -v gnuplot >/dev/null || { echo "bench/measures/arrays-summarise.sh: gnuplot missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
	mkdir -p "$out/figures" "$raw"
	failed=0

	# The members' traces of every finished run, cut into phases.
	# In the order of the run: members, then layouts (arrays-env.txt).
	cfgs=""
	for n in $(sed -n 's/^members=//p' "$out/arrays-env.txt"); do
		for l in $(sed -n 's/^layouts=//p' "$out/arrays-env.txt"); do cfgs="$cfgs ${l%%:*}-$n"; done
	done
	rundirs=$(for c in $cfgs; do ls -d "$raw/$c"/run* 2>/dev/null | sort -V; done)
	[ -n "$rundirs" ] || { echo "bench/measures/arrays-summarise.sh: no runs of ($cfgs ) in '$raw'" >&2; exit 2; }
	rows=0
	for d in $rundirs; do
		[ -f "$d/ok" ] || { echo "bench/measures/arrays-summarise.sh: $d: the guest did not finish; left out" >&2; failed=1; continue; }
		cfg=${d%/run*}; cfg=${cfg##*/}; run=${d##*/run}
		traces=()
		for i in $(seq 0 $((${cfg##*-} - 1))); do traces+=("$d/trace$i.csv"); done
		if ! "$trace_tool" "$disk_size" "${traces[@]}" >"$d/trace.csv" 2>"$d/trace.err"; then
			echo "bench/measures/arrays-summarise.sh: $d: $(cat "$d/trace.err")" >&2
			rm -f "$d/trace.csv"; failed=1; continue
		fi
		[ $rows = 0 ] && sed -n '1s/^/layout,members,run,/p' "$d/trace.csv"
		sed 1d "$d/trace.csv" | sed "s/^/${cfg%-*},${cfg##*-},$run,/"
		rows=$((rows + 1))
	done >"$runs_csv"
	[ $rows -gt 0 ] || { echo "bench/measures/arrays-summarise.sh: no finished runs in '$raw'" >&2; exit 1; }

	# Every run's traces against its FIEMAP through the layout (hc-arrayload):
	# the same bytes per class, member and third, or the run is named.
	echo "layout,members,run,agree" >"$out/arrays-agree.csv"
	for d in $rundirs; do
		[ -s "$d/trace.csv" ] || continue
		cfg=${d%/run*}; cfg=${cfg##*/}; run=${d##*/run}
		f=$(ls "$d"/*-fiemap.csv 2>/dev/null | head -n 1)
		[ -n "$f" ] || { echo "bench/measures/arrays-summarise.sh: $d: no FIEMAP output" >&2; failed=1; continue; }
		a=$(awk -F, -v need="member class phase bytes_t0 bytes_t1 bytes_t2" "$CSV_AWK"'
			$C["phase"] == "seq" && $C["member"] != "all" { print $C["class"], $C["member"], $C["bytes_t0"], $C["bytes_t1"], $C["bytes_t2"] }' "$d/trace.csv" | sort)
		b=$(awk -F, -v need="class member bytes_t0 bytes_t1 bytes_t2" "$CSV_AWK"'
			{ print $C["class"], $C["member"], $C["bytes_t0"], $C["bytes_t1"], $C["bytes_t2"] }' "$f" | sort)
		[ "$a" = "$b" ] && ok=1 || { ok=0; echo "bench/measures/arrays-summarise.sh: $d: traces and FIEMAP disagree" >&2; }
		echo "${cfg%-*},${cfg##*-},$run,$ok" >>"$out/arrays-agree.csv"
	done

	# Medians (min-max) over the runs, read by column name (bench/measures/csv.awk).
	# median of the space-separated list s; also sets lo and hi
	stats=$STATS_AWK'function med(s,	a, n) { n = split(s, a, " "); stats_sort(a, n)
			lo = a[1]; hi = a[n]; nn = n
			return stats_med(a, n) }'
	awk -F, -v need="layout members run member class phase bytes_t0 bytes_t1 bytes_t2 drive_t0_us drive_t1_us drive_t2_us" "$CSV_AWK$stats"'
		$C["phase"] == "seq" {
			k = $C["layout"] "," $C["members"] "," $C["class"] "," $C["member"]
			if (!(k in seen)) { seen[k] = 1; order[++no] = k }
			for (t = 0; t < 3; t++) {
				v[k, t] = v[k, t] " " $C["bytes_t" t] / 1048576
				# the rate where at least 1 MiB of the class sits
				if ($C["bytes_t" t] >= 1048576 && $C["drive_t" t "_us"] > 0)
					r[k, t] = r[k, t] " " $C["bytes_t" t] / $C["drive_t" t "_us"]
			}
		}
		END {
			if (csv_bad) exit 2
			print "layout,members,class,member,mib_t0,mib_t1,mib_t2,mib_t0_min,mib_t0_max,mib_t2_min,mib_t2_max,runs,mb_s_t0,mb_s_t1,mb_s_t2"
			for (i = 1; i <= no; i++) {
				k = order[i]
				m0 = med(v[k, 0]); l0 = lo; h0 = hi; m1 = med(v[k, 1]); m2 = med(v[k, 2])
				printf "%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d", k, m0, m1, m2, l0, h0, lo, hi, nn
				for (t = 0; t < 3; t++) printf ",%s", r[k, t] != "" ? sprintf("%.1f", med(r[k, t])) : ""
				print ""
			}
		}' "$runs_csv" >"$out/arrays-placement.csv" || failed=1
	awk -F, -v need="layout members run member class phase bytes drive_us svc_p50_us svc_p99_us svc_mean_us seek_mean_us cyl_mean" "$CSV_AWK$stats"'
		# The array time of a sequential phase, from the members rows: RAID0
		# splits each 2 MiB read over all its members, which serve their
		# parts at once (the busiest member); dm-linear sends each read to one
		# member, one after another (the members added).
		$C["member"] != "all" && $C["phase"] == "seq" {
			r = $C["layout"] "," $C["members"] "," $C["class"] "," $C["run"]
			if (!(r in rb)) rorder[++nr] = r
			rb[r] += $C["bytes"]
			rsum[r] += $C["drive_us"]
			if ($C["drive_us"] > rmax[r]) rmax[r] = $C["drive_us"]
			rlay[r] = $C["layout"]
		}
		$C["member"] == "all" {
			k = $C["layout"] "," $C["members"] "," $C["class"]
			if (!(k in seen)) { seen[k] = 1; order[++no] = k }
			if ($C["phase"] != "seq") {
				p50[k] = p50[k] " " $C["svc_p50_us"] / 1000
				p99[k] = p99[k] " " $C["svc_p99_us"] / 1000
				mean[k] = mean[k] " " $C["svc_mean_us"] / 1000
				seek[k] = seek[k] " " $C["seek_mean_us"] / 1000
				cyl[k] = cyl[k] " " $C["cyl_mean"]
			}
		}
		END {
			if (csv_bad) exit 2
			for (i = 1; i <= nr; i++) {
				r = rorder[i]; k = r; sub(/,[^,]*$/, "", k)
				t = rlay[r] == "linear" ? rsum[r] : rmax[r]
				mbs[k] = mbs[k] " " (t > 0 ? rb[r] / t : 0)
			}
			print "layout,members,class,seq_mb_s,seq_mb_s_min,seq_mb_s_max,rand_p50_ms,rand_p50_ms_min,rand_p50_ms_max,rand_p99_ms,rand_mean_ms,rand_seek_ms,rand_cyl,runs"
			for (i = 1; i <= no; i++) {
				k = order[i]
				s = med(mbs[k]); sl = lo; sh = hi; n = nn
				p = med(p50[k]); pl = lo; ph = hi
				printf "%s,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f,%d\n", k, s, sl, sh, p, pl, ph, med(p99[k]), med(mean[k]), med(seek[k]), med(cyl[k]), n
			}
		}' "$runs_csv" >"$out/arrays-perf.csv" || failed=1

	# The guest's clock beside the disk's: hc-arrayload's TAG-guest.csv of
	# every finished run (each phase's bytes, reads and elapsed time in the
	# guest, which under TCG adds its own overhead): sequential MB/s and mean
	# time per random read, median and min-max over the runs
	for d in $rundirs; do
		[ -f "$d/ok" ] || continue
		cfg=${d%/run*}; cfg=${cfg##*/}
		g=$(ls "$d"/*guest.csv 2>/dev/null | head -n 1)
		[ -s "$g" ] || { echo "bench/measures/arrays-summarise.sh: $d: no guest.csv (hc-arrayload's)" >&2; failed=1; continue; }
		awk -F, -v need="class phase bytes reads guest_us" -v k="${cfg%-*},${cfg##*-}" "$CSV_AWK"'
			$C["guest_us"] > 0 { if ($C["phase"] == "seq") print k "," $C["class"] ",seq," $C["bytes"] / $C["guest_us"]
				else if ($C["reads"] > 0) print k "," $C["class"] ",rand," $C["guest_us"] / $C["reads"] / 1000 }
			END { if (csv_bad) exit 2 }' "$g" || failed=1
	done | sort -t, -k1,4 -k5,5g | awk -F, "$STATS_AWK"'
		function flush() { if (n) printf "%s,%.2f,%.2f,%.2f,%d\n", k, stats_med(v, n), v[1], v[n], n }
		BEGIN { print "layout,members,class,phase,guest_med,guest_min,guest_max,runs" }
		$1 "," $2 "," $3 "," $4 != k { flush(); k = $1 "," $2 "," $3 "," $4; n = 0 }
		{ v[++n] = $5 } END { flush() }' >"$out/arrays-guest.csv"
}

arrays_plots() {
	# figures: hot vs cold (and unhinted) per array, median with min-max; the
	# plot reads a row per array (arrays-fig-WHAT.csv)
	for fig in seq rand; do
		case $fig in seq) cols="seq_mb_s seq_mb_s_min seq_mb_s_max" ;; rand) cols="rand_p50_ms rand_p50_ms_min rand_p50_ms_max" ;; esac
		awk -F, -v need="layout members class $cols" -v cols="$cols" "$CSV_AWK"'
			{ k = $C["members"] " x " $C["layout"]; if (!(k in seen)) { seen[k] = 1; order[++no] = k }
			  split(cols, c, " "); v[k, $C["class"]] = $C[c[1]] "," $C[c[2]] "," $C[c[3]] }
			END { if (csv_bad) exit 2
			  print "array,hot,hot_min,hot_max,cold,cold_min,cold_max,none,none_min,none_max"
			  for (i = 1; i <= no; i++) print order[i] "," v[order[i], "hot"] "," v[order[i], "cold"] "," v[order[i], "none"] }' \
			"$out/arrays-perf.csv" >"$out/arrays-fig-$fig.csv" || failed=1
		gnuplot -e "set loadpath '$top/plots'" -e "csv='$out/arrays-fig-$fig.csv'" -e "what='$fig'" \
			-e "out='$out/figures/arrays-$fig'" -e "fmt='png'" "$top/plots/arrays.gp" 2>"$raw/gnuplot-$fig.err" ||
			{ echo "bench/runners/arrays.sh: gnuplot $fig: $(head -c 300 "$raw/gnuplot-$fig.err")" >&2; failed=1; }
	done
}

# arrays_page OUT: the Markdown page of an arrays run, on stdout, from OUT's
# files only: arrays-env.txt, arrays-placement.csv, arrays-perf.csv and the
# figures.  Every number on the page is read from those files or derived
# from the layouts' arithmetic (and says so).  Status 2 when a file or a
# column is missing (named).
arrays_page() {
	local f
	for f in arrays-env.txt arrays-placement.csv arrays-perf.csv; do
		[ -s "$out/$f" ] || { echo "bench/measures/measure-arrays.sh: '$out/$f' missing (bench/runners/arrays.sh OUT)" >&2; return 2; }
	done
	arr_env() { sed -n "s/^$1=//p" "$out/arrays-env.txt" | head -n 1 | sed "s/ *$//"; }
	# q FILE NEED PROGRAM: awk over a CSV read by column name (bench/measures/csv.awk)
	q() { awk -F, -v need="$2" "$CSV_AWK"'
		function v(name) { return $C[name] }
		'"$3"' END { if (csv_bad) exit 2 }' "$1" || exit 2; }
	perf=$out/arrays-perf.csv
	place=$out/arrays-placement.csv
	# one value of arrays-perf.csv: pv LAYOUT MEMBERS CLASS COLUMN
	pv() { q "$perf" "layout members class $4" 'v("layout") == "'"$1"'" && v("members") == "'"$2"'" && v("class") == "'"$3"'" { print v("'"$4"'") }'; }
	# "median (min-max)" of a column and its _min and _max: pmm LAYOUT MEMBERS CLASS COLUMN
	pmm() { mmm "$(pv "$1" "$2" "$3" "$4")" "$(pv "$1" "$2" "$3" "$4_min")" "$(pv "$1" "$2" "$3" "$4_max")" n/a; }
	# the guest's clock beside (arrays-guest.csv): gv LAYOUT MEMBERS CLASS PHASE
	gv() { local k="layout=$1 members=$2 class=$3 phase=$4" g=$out/arrays-guest.csv
		# shellcheck disable=SC2086
		mmm "$(csv_get "$g" guest_med $k)" "$(csv_get "$g" guest_min $k)" "$(csv_get "$g" guest_max $k)" n/a; }
	layouts=$(q "$perf" "layout" '!s[v("layout")]++ { printf "%s ", v("layout") }')
	members=$(q "$perf" "members" '!s[v("members")]++ { printf "%s ", v("members") }')

	cat <<-EOF
	# O_HOT / O_COLD on arrays: md RAID0 and dm-linear over modelled disks

	Written by \`bench/runners/arrays.sh\` (\`make arrays-bench\`) from the run of
	$(arr_env run_date) at commit $(arr_env commit | grep . || echo "unknown (a run older than the commit line of arrays-env.txt)"); every measured number here comes from that run's files next
	to this page: [arrays-runs.csv](arrays-runs.csv) (every run, every member,
	from the members' disk-model traces), [arrays-placement.csv](arrays-placement.csv),
	[arrays-perf.csv](arrays-perf.csv), [arrays-env.txt](arrays-env.txt).  The run
	took $(arr_env elapsed_s) s; \`bench/measures/arrays-summarise.sh\` made the tables and
	figures from its traces on $(date -u '+%Y-%m-%d %H:%M UTC').

	## Set-up

	- Kernel: $(arr_env kernel), Linux $(arr_env kernel_version), in QEMU ($(arr_env accel)),
	  one guest per run.
	- Members: $(arr_env disk_size) modelled spinning disks each (\`vm/runner/run --hdd
	  $(arr_env disk_size),profile=$(arr_env profile),time-scale=1\`), one nbdkit
	  instance and one trace per member; $(echo $members | sed 's/ / and /') members
	  per array.
	- Arrays, built in the guest by \`hc-array\` (\`vm/arrays/hc-array.c\`, the md
	  and dm ioctls): md RAID0 without a superblock (what \`mdadm --build\`
	  makes; data from sector 0 of each member), chunk 512 KiB; dm-linear, one
	  \`linear\` target per member, in order.
	- Filesystem: made fresh on the array for every run, $(arr_env file_size) x $(arr_env files)
	  files per class, nothing else on it:
	  \`$(arr_env mkfs)\`,
	  mounted \`noatime\`.
	- Load (\`vm/arrays/hc-arrayload.c\`): $(arr_env files) files of $(arr_env file_size) created
	  \`O_HOT\`, then $(arr_env files) \`O_COLD\`, then $(arr_env files) unhinted, in the
	  filesystem's root, written in 1 MiB \`write()\`s and \`fsync()\`ed one by one;
	  \`sync\`, \`drop_caches\`; then per class a sequential read of every file
	  (2 MiB \`O_DIRECT\` reads) and $(arr_env rand) random 4 KiB \`O_DIRECT\` reads over
	  its files (seed: the run number).  One request at a time everywhere: the
	  same concurrency in every comparison.  The phases are told apart in the
	  members' traces by marker reads (\`vm/arrays/hc-arraytrace.c\`).
	- $(arr_env runs) runs per array; tables give the median (min-max) over the runs.
	- What the kernel made of the arrays, all runs: \`queue/rotational\` =
	  $(arr_env rotational) (md and dm pass the members' flag on, so the hints are
	  honoured); hint counters, summed: $(arr_env hints) (expected
	  $(arr_env hints_expected)).

	How the numbers are taken, on the disk model's clock:
	- **where**: the bytes each class's sequential phase read from each member,
	  by third of that member (outer = the first third of its LBAs, inner =
	  the last), from the traces.  In $(q "$out/arrays-agree.csv" "agree" '{ s += v("agree") } END { print s + 0 }') of the $(q "$out/arrays-agree.csv" "agree" 'END { print NR - 1 }') runs this
	  equalled FIEMAP mapped through the layout byte for byte, per class,
	  member and third ([arrays-agree.csv](arrays-agree.csv)).
	- **sequential MB/s**: the phase's bytes over the array's drive time.  A
	  member's drive time is the sum of \`seek_us + rotation_us + transfer_us\`
	  of its rows; RAID0 splits every 2 MiB read over all its members, which
	  serve their parts at once, so the array's time is the busiest member's;
	  dm-linear sends each read to one member after another, so it is the
	  members' times added.  Not
	  \`end_us - start_us\`: under TCG the guest leaves the drive idle between
	  requests, the drive streams ahead, and the next request's service
	  leaves out the media time it already spent.
	- **random 4 KiB service time**: \`end_us - start_us\` of each read's row,
	  every member's reads pooled; per run the median (p50), then the median
	  over the runs.
	- **guest clock** (beside them, never instead): each phase's bytes over
	  its elapsed time in the guest (sequential MB/s) and its elapsed time
	  over its reads (ms per random read), from hc-arrayload's own timing,
	  median (min-max) over the runs; under TCG the guest adds milliseconds
	  per request that change with the host's load.

	## What "the first third of the array" is on each layout

	ext4 with the series puts \`O_HOT\` files in the first 333 per mille of the
	block groups and \`O_COLD\` files in the last 333 per mille (filled from the
	end), counted in the array's address space; it knows nothing of the
	members.  What that range is on the disks follows from the layout (this
	part is arithmetic, not a measurement):

	- **RAID0**: the array is striped in 512 KiB chunks round-robin, so array
	  offset f (as a fraction of the array) sits at fraction f of every member.
	  The array's first third is the first third of every member: the outer
	  tracks of every disk, and the hot data is striped over all of them.  The
	  last third is every member's inner third.  The rule is right as it is.
	- **dm-linear, N members**: array fraction f lies on member floor(fN), at
	  fraction fN - floor(fN) of it.  With 2 members the first third of the
	  array is the first **two** thirds of member 0 (its outer and middle
	  thirds) and none of member 1; the last third is member 1's middle and
	  inner thirds.  With 4 members it is all of member 0 plus member 1's
	  outer third; the last third is member 2's inner third and all of member 3.
	  In both cases half of the hot region is not on any member's outer third
	  (member 0's middle third for 2 members; member 0's middle and inner
	  thirds for 4), while outer thirds of other members lie outside it
	  (member 1's in the unhinted middle region for 2 members; for 4, member
	  2's in the middle region and member 3's in the cold region).  The kernel does nothing about
	  it: md and dm export one rotational device and ext4 takes the regions
	  from block-group numbers alone.

	## Where the data landed (MiB per third of each member: outer / middle / inner)

EOF
	q "$place" "layout members class member mib_t0 mib_t1 mib_t2" '
		{ k = v("layout") " x" v("members"); if (!(k in seen)) { seen[k] = 1; ord[++no] = k; nm[k] = v("members"); lay[k] = v("layout") }
		  if (v("member") != "all") cell[k, v("class"), v("member")] = sprintf("%g / %g / %g", v("mib_t0"), v("mib_t1"), v("mib_t2")) }
		END {
			max = 0; for (i = 1; i <= no; i++) if (nm[ord[i]] > max) max = nm[ord[i]]
			printf "| array | class |"; for (m = 0; m < max; m++) printf " member %d |", m; print ""
			printf "|---|---|"; for (m = 0; m < max; m++) printf "---|"; print ""
			split("hot cold none", cl, " "); split("O_HOT O_COLD unhinted", cn, " ")
			for (i = 1; i <= no; i++) for (c = 1; c <= 3; c++) {
				k = ord[i]
				printf "| %s x %s | %s |", nm[k], lay[k], cn[c]
				for (m = 0; m < max; m++) printf " %s |", (k SUBSEP cl[c] SUBSEP m) in cell ? cell[k, cl[c], m] : ""
				print ""
			}
		}'
	unh=$(q "$place" "class member mib_t0 mib_t1 mib_t2" 'v("class") == "none" && v("member") == "all" { o += v("mib_t0"); t += v("mib_t0") + v("mib_t1") + v("mib_t2") } END { printf "%g of %g", o, t }')
	spread=$(q "$place" "mib_t0_min mib_t0_max mib_t2_min mib_t2_max" '$C["mib_t0_min"] != $C["mib_t0_max"] || $C["mib_t2_min"] != $C["mib_t2_max"] { n++ } END { print n + 0 }')
	cat <<-EOF

	Medians over the runs; the outer and inner columns differed between runs in
	$spread of the rows of [arrays-placement.csv](arrays-placement.csv) (which has
	min and max).

	The rate where the data sits: each class's sequential reads per third of
	the members, in MB/s per disk (bytes over the drive time of the rows that
	start in that third, members added; median of the runs; MiB in brackets):

	| array | class | outer third | middle third | inner third |
	|---|---|---|---|---|
EOF
	q "$place" "layout members class member mib_t0 mib_t1 mib_t2 mb_s_t0 mb_s_t1 mb_s_t2" '
		function cell(t) { return v("mb_s_t" t) == "" ? "-" : sprintf("%s (%g)", v("mb_s_t" t), v("mib_t" t)) }
		v("member") == "all" { printf "| %s x %s | %s | %s | %s | %s |\n", v("members"), v("layout"),
			v("class") == "hot" ? "O_HOT" : v("class") == "cold" ? "O_COLD" : "unhinted", cell(0), cell(1), cell(2) }'
	cat <<-EOF

EOF
	if [ "${unh% of *}" = "${unh#* of }" ]; then
		cat <<-EOF
	Unhinted files landed in their members' outer thirds too ($unh MiB, all
	arrays, medians): on an empty filesystem the allocator starts at the
	front, hint or not.  What O_HOT buys over no hint shows once the front is
	taken (the aged scenarios of the project's RESULTS.md); these runs
	measure where the regions are on each layout, on a fresh filesystem.
EOF
	else
		cat <<-EOF
	Unhinted files: $unh MiB in their members' outer thirds (all arrays,
	medians), the rest where the allocator found room after the hinted files
	had taken their regions (the placement table).
EOF
	fi
	cat <<-EOF

	## Sequential reads of each class (MB/s on the disk's clock)

	| array | O_HOT | O_COLD | unhinted | O_HOT / O_COLD | guest clock: O_HOT / O_COLD / unhinted |
	|---|---|---|---|---|---|
EOF
	for n in $members; do
		for l in $layouts; do
			h=$(pv "$l" "$n" hot seq_mb_s)
			[ -n "$h" ] || continue
			c=$(pv "$l" "$n" cold seq_mb_s)
			echo "| $n x $l | $(pmm "$l" "$n" hot seq_mb_s) | $(pmm "$l" "$n" cold seq_mb_s) | $(pmm "$l" "$n" none seq_mb_s) | $(ratio "$h" "$c") | $(gv "$l" "$n" hot seq) / $(gv "$l" "$n" cold seq) / $(gv "$l" "$n" none seq) |"
		done
	done
	cat <<-EOF

	![Sequential MB/s per class and array](figures/arrays-seq.png)

	## Random 4 KiB reads over each class's files (service time at the disk, ms)

	| array | class | p50 | p99 | mean | mean seek (ms) | mean seek distance (cylinders) | guest clock: mean per read |
	|---|---|---|---|---|---|---|---|
EOF
	for n in $members; do
		for l in $layouts; do
			[ -n "$(pv "$l" "$n" hot rand_p50_ms)" ] || continue
			for c in hot cold none; do
				case $c in hot) cn=O_HOT ;; cold) cn=O_COLD ;; none) cn=unhinted ;; esac
				echo "| $n x $l | $cn | $(pmm "$l" "$n" $c rand_p50_ms) | $(pv "$l" "$n" $c rand_p99_ms) | $(pv "$l" "$n" $c rand_mean_ms) | $(pv "$l" "$n" $c rand_seek_ms) | $(pv "$l" "$n" $c rand_cyl) | $(gv "$l" "$n" $c rand) |"
			done
		done
	done
	cyl_h=$(pv linear 2 hot rand_cyl) cyl_c=$(pv linear 2 cold rand_cyl)
	seek_h=$(pv linear 2 hot rand_seek_ms) seek_c=$(pv linear 2 cold rand_seek_ms)
	cat <<-EOF

	![Random 4 KiB read service time per class and array](figures/arrays-rand.png)

	The random reads stay inside each class's own $(arr_env files) x $(arr_env file_size) of
	files.  The same bytes take more cylinders on the inner tracks (fewer
	sectors per track), so the arm moves further between the cold files'
	reads: over 2 x linear, ${cyl_c:-?} cylinders and ${seek_c:-?} ms per seek for O_COLD
	against ${cyl_h:-?} and ${seek_h:-?} ms for O_HOT (means over each run's reads, median of
	the runs).  That, not the 4 KiB transfer, is most of the difference in
	service time.  A member of a concatenation holds all of a file set, a
	RAID0 member only its share, which is why the seeks, and the service
	times, are shorter on RAID0.
EOF
	# the measured argument, numbers from the tables above; the model's
	# outer/inner ratio from the profile the run used (an input, not a result)
	zone=$(awk -v p="[$(arr_env profile)]" '$0 == p { on = 1; next } /^\[/ { on = 0 }
		on && $1 == "spt-outer" { o = $3 } on && $1 == "spt-inner" { i = $3 }
		END { if (o && i) printf "%.2f", o / i }' "$top/vm/hdd-model/profiles.conf")
	lin_h=$(pv linear 2 hot seq_mb_s) lin_c=$(pv linear 2 cold seq_mb_s)
	r0_h=$(pv raid0 2 hot seq_mb_s) r0_c=$(pv raid0 2 cold seq_mb_s)
	r0_ratio=$(ratio "$r0_h" "$r0_c")
	# hot data past member 0's outer third on 2 x linear, and the rates by third
	pl() { q "$place" "layout members class member $5" 'v("layout") == "'"$1"'" && v("members") == "'"$2"'" && v("class") == "'"$3"'" && v("member") == "'"$4"'" { print v("'"$5"'") }'; }
	sp_mid=$(q "$place" "layout members class member mib_t1 mib_t2" 'v("layout") == "linear" && v("members") == 2 && v("class") == "hot" && v("member") == "0" { printf "%g", v("mib_t1") + v("mib_t2") }')
	r_out=$(pl linear 2 hot 0 mb_s_t0) r_mid=$(pl linear 2 hot 0 mb_s_t1) r0_out=$(pl raid0 2 hot all mb_s_t0)
	gain=$(awk -v o="$r_out" -v m="$r_mid" 'BEGIN { if (o > 0 && m > 0) printf "%.0f", (o - m) / o * 100 }')
	cat <<-EOF

	## Should ext4 take the hot and cold regions from the array's layout?

	Not in this round: no kernel patch; the argument, from the numbers above.

	- On RAID0 the rule is already right: the hot data is in the outer third of
	  every member and the cold data in the inner third of every member (the
	  placement table).  O_HOT / O_COLD in the sequential table (${r0_ratio:-?} over
	  2 x RAID0) approaches the modelled disk's edge-to-edge media ratio
	  (profile $(arr_env profile): spt-outer / spt-inner = ${zone:-?}) as far as the sets
	  stay near the edges (the rates by third above).
	- On dm-linear the rule is wrong in principle (half of the hot region is
	  member 0's middle, and for 4 members inner, tracks).  ext4 fills the hot
	  region from its start and the cold region from its end, so the hot files
	  sat at member 0's outer end and the cold files at the last member's
	  inner end (the placement table).  Over 2 members O_HOT read at ${lin_h:-?}
	  MB/s and O_COLD at ${lin_c:-?} MB/s, each from one disk (the rates by third
	  are in the table above).  The rule costs something only once hot data outgrow member
	  0's outer third, 1/(3N) of the array ($(arr_env disk_size) / 3 per member here):
EOF
	if [ -n "$sp_mid" ] && [ "$sp_mid" != 0 ]; then
		cat <<-EOF
	  in this run they did.  Over 2 x linear, $sp_mid MiB of the O_HOT set
	  ($(arr_env files) x $(arr_env file_size)) sat in member 0's middle third and read at ${r_mid:-?} MB/s,
	  against ${r_out:-?} MB/s for its part in the outer third; over 2 x RAID0 the
	  same set stayed in the outer thirds of both members (${r0_out:-?} MB/s per
	  disk).  Member 1's outer third, in the unhinted middle region of the
	  concatenation, would have served that part at the outer rate: that is
	  what a per-member region buys here: that part read ${gain:-?}% slower than
	  it would have there.  Meanwhile unhinted files took $(pl linear 2 none 1 mib_t0) MiB of
	  member 1's outer third: over 2 x linear the outer tracks went partly to
	  files nobody asked to be fast, while O_HOT files sat on slower ones.
EOF
	else
		cat <<-EOF
	  this run's hinted data ($(arr_env files) x $(arr_env file_size) per class) did not, so it
	  does not measure that case.$([ -s "$out/spill/RESULTS.md" ] && echo "  A run with a hot set larger than member 0's
	  outer third: [spill/RESULTS.md](spill/RESULTS.md).")
EOF
	fi
	cat <<-EOF
	- What a layout-aware region would change, then: the capacity of the fast
	  region on a concatenation (the outer third of each member, N ranges,
	  instead of a prefix that is half slow tracks), not where the first
	  1/(3N) of the array's hot data goes.  What it would not change: a
	  concatenation reads a file from one disk, so O_HOT on dm-linear reads
	  at one disk's rate (${lin_h:-?} MB/s above), while RAID0 stripes it over all members (${r0_h:-?}
	  MB/s over 2; cold ${r0_c:-?}): the layout decides more than the region.
	- The change, if it is made: the regions as a list of block ranges per
	  region (settable through the sysfs tunables, e.g. \`hot_ranges\` and
	  \`cold_ranges\` next to \`hot_region_permille\`), with the group scan
	  (EXT4_MB_HINT_REGION) walking the list in order; deriving it in the
	  kernel would need dm and md to export where each member starts (no such
	  queue limit exists), so a list that user space writes after
	  \`dmsetup table\` is the smaller step.  It is not small for the
	  allocator: about fifteen call sites in ialloc.c, balloc.c and mballoc.c
	  take one [start, end) range of groups today (the ordered scan, the
	  cold region's downward fill, the reserve, the counters).
EOF
	if [ -n "$sp_mid" ] && [ "$sp_mid" != 0 ]; then
		cat <<-EOF
	  What it would buy is measured above: ${gain:-?}% of the sequential rate for
	  the part of a hot set beyond 1/(3N) of a concatenation, nothing below
	  that, and nothing on RAID0.
EOF
	else
		cat <<-EOF
	  It is worth doing when a hot set larger than 1/(3N) of a concatenation
	  is measured to read slower than the same set on the members' outer
	  thirds$([ -s "$out/spill/RESULTS.md" ] && echo " ([spill/RESULTS.md](spill/RESULTS.md) measures that case)").
EOF
	fi
}
