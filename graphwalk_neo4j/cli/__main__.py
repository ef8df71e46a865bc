from graphwalk_neo4j.cli import main

main()
