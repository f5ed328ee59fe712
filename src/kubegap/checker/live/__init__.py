"""The live reader: everything kubegap does to read a cluster over the network, and nothing else.

Contract. Every request goes through `client.ReadOnlyClient`, which can only send GET and refuses,
before any I/O, a path that names Secrets, watch, exec, attach, port-forward, proxy or logs (the
guard in `request_paths` decides on the decoded, normalised path). Every request is bounded in time
and bytes (`bounded_http`), every kind in pages and bytes, and the whole read by a scan budget
(`limits`), so a read always ends. `reader.read_live` returns one `Snapshot` in which every kind asked
for carries a coverage verdict (read, absent, forbidden, failed, malformed, partial, not collected):
checks never pass on what was not read whole. `kubeconfig` resolves which file and context are used,
`credentials` readies that context's credentials before the first request (a tokenFile read and an
exec plugin run by `exec_plugin`, both bounded; tokens a header cannot carry refused), so the
official client runs and reads nothing itself, `discovery` asks the API which kinds it serves,
`pages` lists one kind page by page, and `rbac` prints the read-only ClusterRole all of this needs.
"""
