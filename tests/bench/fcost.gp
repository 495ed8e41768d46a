# make bench: CPU per fault against the module unloaded (tests/bench/bench.sh)
#   gnuplot -e "data='fcost.dat'; out='fcost.svg'; clock='icount'" fcost.gp
# clock: icount (guest instructions) or time
# data (tests/bench/fcost.awk): a header row, then per setting the change in
# percent, median of the rounds, lowest and highest, for minor ext4, ext4
# in 4 KiB folios, tmpfs, and major faults; the A/A row is the module unloaded twice.
set terminal svg size 1100,560 dynamic noenhanced font 'Helvetica,13' background rgb 'white'
set output out
set datafile missing '?'
# the header row names the columns; the titles below are the key's
set datafile columnheaders
if (!exists('clock')) clock = 'time'
set title (clock eq 'icount' ? 'Instructions' : 'CPU time') . ' per fault against the module unloaded, same round (median of the rounds; bars: lowest to highest)'
# four boxes a setting, each with its lowest-to-highest bar
w = 0.2
set boxwidth w
set style fill solid 0.85 border rgb '#404040'
set xrange [-0.6:*]
set ylabel 'change per fault (%)'
set xtics nomirror scale 0
set ytics nomirror
set grid ytics lc rgb '#d0d0d0'
set key outside right top vertical Left reverse noautotitle
set border 3
set xzeroaxis lt -1
# a noisy run's bars may leave the plot: the table has them
set yrange [-60<*:*<120]
c1 = '#1f77b4'; c2 = '#9ecae1'; c3 = '#2ca02c'; c4 = '#d62728'
plot data using ($0 - 1.5 * w):2:xtic(1) with boxes title 'minor, ext4' lc rgb c1, \
	'' using ($0 - 1.5 * w):2:3:4 with yerrorbars lc rgb '#404040' pt 0 ps 0 notitle, \
	'' using ($0 - 0.5 * w):5 with boxes title 'minor, ext4 4 KiB' lc rgb c2, \
	'' using ($0 - 0.5 * w):5:6:7 with yerrorbars lc rgb '#404040' pt 0 ps 0 notitle, \
	'' using ($0 + 0.5 * w):8 with boxes title 'minor, tmpfs' lc rgb c3, \
	'' using ($0 + 0.5 * w):8:9:10 with yerrorbars lc rgb '#404040' pt 0 ps 0 notitle, \
	'' using ($0 + 1.5 * w):11 with boxes title 'major' lc rgb c4, \
	'' using ($0 + 1.5 * w):11:12:13 with yerrorbars lc rgb '#404040' pt 0 ps 0 notitle, \
	2 with lines dt 2 lw 1.5 lc rgb c1 title 'minor target, 2 %', \
	5 with lines dt 2 lw 1.5 lc rgb c4 title 'major target, 5 %'
