import sys

from twenty48.cli import main

sys.exit(main())
