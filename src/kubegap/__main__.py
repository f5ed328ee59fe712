from kubegap.cli import main

main()
