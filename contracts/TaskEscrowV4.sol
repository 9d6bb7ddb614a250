// SPDX-License-Identifier: MIT
// Escrow v4 (docs/escrow.md#funding-with-one-signature): TaskEscrowV3 with
// `createTaskWithAuthorization`, which opens a task funded by the client's EIP-3009
// `ReceiveWithAuthorization` signature, so anyone — the backend's relayer — can send the
// transaction and pay its gas while the client only signs. Everything else (reclaim after expiry,
// operator-only and fee-capped release, releaseSplit) is v3's code, inherited unchanged; a v3
// deployment keeps settling its own tasks beside this one.
pragma solidity 0.8.28;

import {TaskEscrowV3} from "./TaskEscrowV3.sol";

/// The EIP-3009 call USDC (FiatToken v2.2) takes with a `bytes` signature: an EOA's r‖s‖v or an
/// ERC-1271 contract wallet's signature. Only the payee (`to`) may call it.
interface IERC3009Receiver {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

contract TaskEscrowV4 is TaskEscrowV3 {
    /// The terms a funding authorization's nonce commits to (see fundingNonce).
    bytes32 public constant TASK_FUNDING_TYPEHASH =
        keccak256("TaskFunding(uint256 chainId,address escrow,address client,uint256 reward,bytes32 ref,uint64 expiresAt)");

    error FundingNonceMismatch(bytes32 expected, bytes32 given);

    constructor(address token_, address owner_, address operator_, address feeRecipient_, uint16 maxFeeBps_)
        TaskEscrowV3(token_, owner_, operator_, feeRecipient_, maxFeeBps_)
    {}

    /// The EIP-3009 nonce of the authorization that funds exactly this task. The token signs over
    /// (from, to, value, validAfter, validBefore, nonce), none of which names the task; deriving the
    /// nonce from the task's terms makes the one signature also sign the ref and the expiry, so a
    /// relayer holding it can open this task and no other. It names the chain and this escrow too,
    /// so funding the same terms on another escrow uses another of the client's nonces.
    function fundingNonce(address client, uint256 reward, bytes32 ref, uint64 expiresAt) public view returns (bytes32) {
        return keccak256(abi.encode(TASK_FUNDING_TYPEHASH, block.chainid, address(this), client, reward, ref, expiresAt));
    }

    /// Opens a task for `client` — the signer, not the caller — pulling exactly `reward` from it with
    /// the token's `receiveWithAuthorization`, which only this contract (the payee) may use. Any
    /// caller may relay it; it gains nothing: the task, its expiry and its reclaim belong to
    /// `client`. The token refuses a wrong signature, a used or cancelled nonce (so a replay) and a
    /// time outside (validAfter, validBefore); this contract refuses a nonce not derived from the terms.
    function createTaskWithAuthorization(
        address client,
        uint256 reward,
        bytes32 ref,
        uint64 expiresAt,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external nonReentrant returns (uint256 taskId) {
        if (client == address(0)) revert ZeroAddress();
        if (reward == 0) revert ZeroAmount();
        if (expiresAt <= block.timestamp) revert ExpiryNotInFuture(expiresAt);
        bytes32 expected = fundingNonce(client, reward, ref, expiresAt);
        if (nonce != expected) revert FundingNonceMismatch(expected, nonce);
        taskId = ++taskCount;
        tasks[taskId] = Task({client: client, amount: reward, state: State.Open, expiresAt: expiresAt});
        emit TaskCreated(taskId, client, reward, ref);
        IERC3009Receiver(address(token)).receiveWithAuthorization(
            client, address(this), reward, validAfter, validBefore, nonce, signature
        );
    }
}
