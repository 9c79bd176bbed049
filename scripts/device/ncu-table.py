#!/usr/bin/env python3
"""scripts/device/ncu-table.py W METRICS TAG...: one table of Nsight Compute raw CSVs
(`ncu --csv --page raw`, one kernel each) W/TAG.csv, a row per metric of the comma-separated
METRICS list, a column per TAG (stall metrics shortened to stall_<reason>). Standard library only."""
import csv
import os
import sys

W, M, tags = sys.argv[1], sys.argv[2].split(','), sys.argv[3:]
rows = {}
for t in tags:
    try:
        r = list(csv.reader(open(os.path.join(W, t + '.csv'))))
        h = [i for i, x in enumerate(r) if x and x[0] == 'ID'][0]
        rows[t] = dict(zip(r[h], r[h + 2]))
    except Exception as e:  # a failed ncu run leaves no table: say so, keep the others
        print(t, 'no data', e)
print('metric ' + ' '.join(rows))
for k in M:
    n = k.replace('smsp__average_warps_issue_stalled_', 'stall_').replace('_per_issue_active.ratio', '')
    print(n, ' '.join(rows[t].get(k, '-') for t in rows))
