import sys

from crosstable.cli import main

sys.exit(main())
