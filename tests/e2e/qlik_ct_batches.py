"""Two batches of integration_tests' Qlik `__ct` samples as Replicate lands them,
cut and replayed the way the incremental tests and the kill sweep's `qlik_ct`
workload land them: batch 1 ends with the BEFOREIMAGE of a primary-key update
whose UPDATE lands in batch 2; batch 2 carries the rest, late changes for old
keys and two rows of batch 1 delivered again."""

from tests.e2e.helpers import read_seed


def ct_row(seq, oper, mask, key, first, last, email, ts):
    return {
        "header__change_seq": seq,
        "header__change_oper": oper,
        "header__change_mask": mask,
        "header__stream_position": "late",
        "header__operation": {"U": "UPDATE", "B": "BEFOREIMAGE"}[oper],
        "header__transaction_id": "LATE" * 8,
        "header__timestamp": ts,
        "customer_id": key,
        "first_name": first,
        "last_name": last,
        "email": email,
    }


CUSTOMERS_CT = read_seed("customers__ct")
ORDER_LINES_CT = read_seed("order_lines__ct")
# batch 1 ends with the BEFOREIMAGE of a primary-key update (1010) whose UPDATE lands in
# batch 2: a landing cut between the two rows of one change
BATCH_1 = {"it_customers__ct": CUSTOMERS_CT[:9], "it_order_lines__ct": ORDER_LINES_CT[:4]}
LATE_ROWS = [
    # key 1: an update older than the one batch 1 already applied (no before image)
    ct_row(
        "20240301100003000000000000000001002",
        "U",
        "0004",
        "1",
        "Alice",
        "Martin",
        "alice.early@example.com",
        "2024-03-01 10:00:03",
    ),
    # key 4: an update between two versions batch 1 already closed
    ct_row(
        "20240301100100000000000000000001006",
        "B",
        "",
        "4",
        "Dan",
        "Petitjean",
        "dan@example.com",
        "2024-03-01 10:01:00",
    ),
    ct_row(
        "20240301100100000000000000000001006",
        "U",
        "0004",
        "4",
        "Dan",
        "Petitjean",
        "dan.late@example.com",
        "2024-03-01 10:01:00",
    ),
]
BATCH_2 = {
    # the rest, the late rows, and two rows of batch 1 delivered again
    "it_customers__ct": CUSTOMERS_CT[9:] + LATE_ROWS + CUSTOMERS_CT[1:3],
    "it_order_lines__ct": ORDER_LINES_CT[4:] + ORDER_LINES_CT[:1],
}
