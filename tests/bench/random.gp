# make bench: MiB read against MiB touched by random walks (tests/bench/random.sh)
#   gnuplot -e "data='random.dat'; out='random.svg'" random.gp
# data: share %, MiB touched, MiB read under stock, best, MADV_RANDOM
set terminal svg size 960,600 dynamic noenhanced font 'Helvetica,13' background rgb 'white'
set output out
set title 'Random walks of a 128 MiB file, no hint, read_ahead_kb 128: MiB read against MiB touched (log-log)'
set logscale xy 10
set xlabel 'MiB touched (0.1% to 20% of the pages)'
set ylabel 'MiB read'
set grid lc rgb '#d0d0d0'
set key left top
set border 3
set xtics nomirror
set ytics nomirror
plot data using 2:2 with lines dt 2 lc rgb '#888888' title 'read = touched', \
     data using 2:3 with linespoints pt 7 lc rgb '#888888' title 'stock', \
     data using 2:4 with linespoints pt 5 lc rgb '#1f77b4' title 'best', \
     data using 2:5 with linespoints pt 9 lc rgb '#2ca02c' title 'MADV_RANDOM (stock)'
