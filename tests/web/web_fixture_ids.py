"""Ids and strings of the web test fixtures (tests/web/fixtures), shared by the test modules."""

HBM = "fixture-2024-03-hbm-ecc-training-hang"
OS_UPDATE = "fixture-2023-08-os-update-network-loss"
APISERVER = "fixture-2022-11-apiserver-overload"
IB_FLAP = "fixture-2021-05-ib-link-flap"
DRIVER = "fixture-2020-01-driver-upgrade"
STUDY = "fixture-fleet-interruptions"
SIGNATURE = "NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129 <rank 3>"
