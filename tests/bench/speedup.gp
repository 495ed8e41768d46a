# make bench: wall-time speedup over stock per workload (tests/bench/bench.sh)
#   gnuplot -e "data='speedup.dat'; out='speedup.svg'" speedup.gp
# colors: one colour per data column, space-separated (bench.sh passes
# the file report.awk writes); a default list otherwise.
# data: a header row (workload, then one name per setting other than stock),
# then one row per workload: median stock wall time / median under the
# setting, same workload, same boot.
set terminal svg size 1280,620 dynamic noenhanced font 'Helvetica,13' background rgb 'white'
set output out
set datafile missing '?'
set title 'Wall-time speedup over stock (median stock / median setting, same boot; log scale, above 1 is faster)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#404040'
set boxwidth 0.9
set logscale y 10
set yrange [0.1:*]
set ylabel 'speedup over stock (x)'
set xtics rotate by 30 right nomirror scale 0 offset 0,-0.2
set ytics nomirror
set grid ytics lc rgb '#d0d0d0'
set key outside right top vertical Left reverse noautotitle
set border 3
set bmargin 4.5
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 1.5 dt 2 lc rgb '#000000' front
if (!exists('colors')) colors = '#888888 #1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #000000 #cccccc #b2182b #17becf #bcbd22'
ncols = int(system('head -n 1 ' . data . ' | wc -w'))
plot for [i=2:ncols] data using i:xtic(1) title columnheader(i) lc rgb word(colors, i - 1)
