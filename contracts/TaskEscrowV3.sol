// SPDX-License-Identifier: MIT
// Escrow v3 (API.md §18): TaskEscrow with `releaseSplit`, which settles a bounty by crediting up to
// ten recipients — the winners, and the client for places left unawarded — in one call. Everything
// else, reclaim after expiry included, is v2's own code, inherited unchanged; a v2 deployment keeps
// settling its tasks beside this one (two contracts, two task counters: the server records which).
pragma solidity 0.8.28;

import {TaskEscrow} from "./TaskEscrow.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

contract TaskEscrowV3 is TaskEscrow {
    /// API.md §18: a bounty has at most 10 places; with fewer awarded, the client's refund is one more.
    uint256 public constant MAX_RECIPIENTS = 10;
    // TaskEscrow keeps its own MAX_BPS private so v2's source (and deployed code) stays as it was.
    uint16 private constant BPS = 10_000;

    event TaskSplitReleased(uint256 indexed taskId, address[] recipients, uint256[] amounts, uint256 fee);

    error BadRecipients(uint256 count);
    error LengthMismatch(uint256 recipients, uint256 amounts);
    error SplitMismatch(uint256 expected, uint256 actual);

    constructor(address token_, address owner_, address operator_, address feeRecipient_, uint16 maxFeeBps_)
        TaskEscrow(token_, owner_, operator_, feeRecipient_, maxFeeBps_)
    {}

    /// Credits each recipient its amount and the fee recipient `feeBps` of the whole task amount
    /// (rounded down, as `release`). The amounts plus the fee must equal the task amount exactly,
    /// so nothing is left behind and nothing is taken from other tasks. Credits only: no token moves
    /// here, and the reentrancy lock covers it all the same.
    function releaseSplit(uint256 taskId, address[] calldata recipients, uint256[] calldata amounts, uint16 feeBps)
        external
        onlyOperator
        nonReentrant
    {
        if (feeBps > maxFeeBps) revert FeeTooHigh(feeBps);
        if (recipients.length == 0 || recipients.length > MAX_RECIPIENTS) revert BadRecipients(recipients.length);
        if (recipients.length != amounts.length) revert LengthMismatch(recipients.length, amounts.length);
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        uint256 fee = Math.mulDiv(task.amount, feeBps, BPS);
        uint256 total = fee;
        for (uint256 i = 0; i < recipients.length; ++i) {
            if (recipients[i] == address(0)) revert ZeroAddress();
            total += amounts[i];
        }
        if (total != task.amount) revert SplitMismatch(task.amount, total);
        task.state = State.Released;
        for (uint256 i = 0; i < recipients.length; ++i) claimable[recipients[i]] += amounts[i];
        claimable[feeRecipient] += fee;
        emit TaskSplitReleased(taskId, recipients, amounts, fee);
    }
}
