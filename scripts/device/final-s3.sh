sh scripts/device/unstr-win.sh 2>&1 | tail -25
sh scripts/device/fastsg-n14.sh pack
