# Never finishes: the harness must kill the guest at its time limit.
sleep 100000
