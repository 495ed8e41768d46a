# make bench: CPU per fault against the module unloaded (tests/bench/bench.sh)
#   gnuplot -e "data='fcost.dat'; out='fcost.svg'; clock='icount'" fcost.gp
# clock: icount (guest instructions) or time
# data (tests/bench/fcost.awk): a header row, then per setting the change in
# percent, median of the rounds, lowest and highest, for minor ext4, ext4
# in 4 KiB folios, tmpfs, and major faults; the A/A row is the module unloaded twice.
set terminal svg size 1100,560 dynamic noenhanced font 'Helvetica,13' background rgb 'white'
set output out
set datafile missing '?'
if (!exists('clock')) clock = 'time'
set title (clock eq 'icount' ? 'Instructions' : 'CPU time') . ' per fault against the module unloaded, same round (median of the rounds; bars: lowest to highest)'
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.85 border rgb '#404040'
set boxwidth 0.9
set ylabel 'change per fault (%)'
set xtics nomirror scale 0
set ytics nomirror
set grid ytics lc rgb '#d0d0d0'
set key outside right top vertical Left reverse noautotitle
set border 3
set xzeroaxis lt -1
# the targets: minor faults within 2 %, major faults within 5 %
set arrow from graph 0, first 2 to graph 1, first 2 nohead dt 2 lc rgb '#1f77b4'
set arrow from graph 0, first 5 to graph 1, first 5 nohead dt 2 lc rgb '#d62728'
set label 'minor target' at graph 1, first 2 left offset 0.5,0 tc rgb '#1f77b4'
set label 'major target' at graph 1, first 5 left offset 0.5,0 tc rgb '#d62728'
plot data using 2:3:4:xtic(1) title 'minor, ext4' lc rgb '#1f77b4', \
	'' using 5:6:7 title 'minor, ext4 4 KiB' lc rgb '#9ecae1', \
	'' using 8:9:10 title 'minor, tmpfs' lc rgb '#2ca02c', \
	'' using 11:12:13 title 'major' lc rgb '#d62728'
