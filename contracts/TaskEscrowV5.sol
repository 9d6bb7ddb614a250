// SPDX-License-Identifier: MIT
// Escrow v5 (docs/escrow.md#escrow-v5): TaskEscrowV4 with settlement in part and a standing funding
// mandate.
//
// - `settle` ends a task with part of its remainder to the agent (less the fee on that part only)
//   and the rest refunded to the client, in one call (docs/api.md#settlement-offers).
// - `releasePart` credits part of a task to the agent and keeps the task open with the rest
//   (docs/api.md#milestones). A task's `amount` is always its unreleased remainder, so v4's `reclaim`,
//   `refund`, `release` and `releaseSplit` act on the remainder only; `released(taskId)` is the sum
//   released so far. The client's reclaim after `expiresAt` still takes whatever remains, and
//   nobody can block it.
// - A funding mandate (docs/api.md#standing-allowance): the client signs once an EIP-712
//   `FundingMandate` naming a funder (the backend's relayer), per-task and per-UTC-day caps and an
//   end date; that funder alone may then open tasks for the client with `createTaskFor`, pulling
//   the reward from the client's allowance (an EIP-2612 permit), within the caps, which this
//   contract enforces. The task's client is the signer, never the funder. The client revokes it
//   on-chain, directly or by a relayed signature.
//
// Everything else is v4's code, inherited unchanged; a v4 deployment keeps settling its own tasks
// beside this one.
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {TaskEscrowV4} from "./TaskEscrowV4.sol";

/// EIP-2612 `permit` as USDC (FiatToken v2.2) takes it with a `bytes` signature: an EOA's r‖s‖v or
/// whatever an ERC-1271 contract wallet accepts.
interface IERC2612BytesPermit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, bytes memory signature)
        external;
}

contract TaskEscrowV5 is TaskEscrowV4, EIP712 {
    using SafeERC20 for IERC20;

    uint16 private constant BPS_DENOMINATOR = 10_000;

    /// What a client signs once: `funder` may open tasks for `client`, each of at most `perMission`,
    /// at most `perDay` in all per UTC day (block.timestamp / 86400), until `validUntil` (exclusive).
    struct FundingMandate {
        address client;
        address funder;
        uint256 perMission;
        uint256 perDay;
        uint64 validUntil;
        uint256 nonce;
    }

    bytes32 public constant FUNDING_MANDATE_TYPEHASH = keccak256(
        "FundingMandate(address client,address funder,uint256 perMission,uint256 perDay,uint64 validUntil,uint256 nonce)"
    );
    bytes32 public constant FUNDING_MANDATE_REVOCATION_TYPEHASH =
        keccak256("FundingMandateRevocation(address client,uint256 nonce)");

    /// The sum released from each task by `releasePart` (and the agent's part of `settle`), fee included.
    mapping(uint256 taskId => uint256) public released;
    /// The mandate in force per client (funder zero: none). Its `nonce` is the one it was signed with.
    mapping(address client => FundingMandate) private _mandates;
    /// The nonce the client's next mandate or revocation must carry; each one used bumps it, so a
    /// signature is good once and a revoked mandate's signature can never be set again.
    mapping(address client => uint256) public mandateNonce;
    /// What `createTaskFor` has pulled from each client per UTC day, against the mandate's `perDay`.
    mapping(address client => mapping(uint256 day => uint256)) public fundedOn;

    event TaskSettled(uint256 indexed taskId, address indexed agent, uint256 agentAmount, uint256 fee, uint256 refund);
    event TaskPartReleased(uint256 indexed taskId, address indexed agent, uint256 amount, uint256 fee, uint256 remaining);
    event FundingMandateSet(
        address indexed client,
        address indexed funder,
        uint256 perMission,
        uint256 perDay,
        uint64 validUntil,
        uint256 nonce
    );
    event FundingMandateRevoked(address indexed client, uint256 nonce);
    event TaskFundedByMandate(uint256 indexed taskId, address indexed client, address indexed funder, uint256 reward);

    error AmountOverRemainder(uint256 taskId, uint256 remainder, uint256 amount);
    error BadMandateSignature(address client);
    error MandateNonceMismatch(uint256 expected, uint256 given);
    error MandateExpired(uint64 validUntil);
    error NotMandateFunder(address client, address caller);
    error OverPerMission(uint256 perMission, uint256 reward);
    error OverPerDay(uint256 perDay, uint256 fundedToday, uint256 reward);
    error PermitFailed(address client, uint256 allowance, uint256 permitValue);

    constructor(address token_, address owner_, address operator_, address feeRecipient_, uint16 maxFeeBps_)
        TaskEscrowV4(token_, owner_, operator_, feeRecipient_, maxFeeBps_)
        EIP712("TaskEscrow", "5")
    {}

    // --- Settlement in part ----------------------------------------------------------------------

    /// Ends an open task: `agentAmount` (≤ the unreleased remainder) goes to `agent` less `feeBps`
    /// of it (rounded down, in the agent's favour), the fee to the fee recipient, and the rest of
    /// the remainder back to the client. Credits only, as every payout here. An `agentAmount` of 0
    /// is a refund (the task ends Refunded); anything else ends it Released.
    function settle(uint256 taskId, address agent, uint256 agentAmount, uint16 feeBps)
        external
        onlyOperator
        nonReentrant
    {
        if (feeBps > maxFeeBps) revert FeeTooHigh(feeBps);
        if (agent == address(0)) revert ZeroAddress();
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        uint256 remainder = task.amount;
        if (agentAmount > remainder) revert AmountOverRemainder(taskId, remainder, agentAmount);
        uint256 fee = Math.mulDiv(agentAmount, feeBps, BPS_DENOMINATOR);
        uint256 refunded = remainder - agentAmount;
        task.state = agentAmount == 0 ? State.Refunded : State.Released;
        task.amount = 0;
        released[taskId] += agentAmount;
        claimable[agent] += agentAmount - fee;
        claimable[feeRecipient] += fee;
        claimable[task.client] += refunded;
        emit TaskSettled(taskId, agent, agentAmount, fee, refunded);
    }

    /// Credits `amount` (> 0, ≤ the unreleased remainder) of an open task to `agent` less `feeBps`
    /// of it, and keeps the task open with `amount` less; the remainder reaching 0 closes it as
    /// Released. The client's reclaim after `expiresAt` takes what remains.
    function releasePart(uint256 taskId, address agent, uint256 amount, uint16 feeBps)
        external
        onlyOperator
        nonReentrant
    {
        if (feeBps > maxFeeBps) revert FeeTooHigh(feeBps);
        if (agent == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        uint256 remainder = task.amount;
        if (amount > remainder) revert AmountOverRemainder(taskId, remainder, amount);
        uint256 fee = Math.mulDiv(amount, feeBps, BPS_DENOMINATOR);
        uint256 remaining = remainder - amount;
        task.amount = remaining;
        if (remaining == 0) task.state = State.Released;
        released[taskId] += amount;
        claimable[agent] += amount - fee;
        claimable[feeRecipient] += fee;
        emit TaskPartReleased(taskId, agent, amount, fee, remaining);
    }

    // --- Funding mandate -------------------------------------------------------------------------

    /// The mandate in force for `client` (all zero when none: never set, revoked or replaced by a
    /// revocation). `validUntil` in the past means it has lapsed though it is still recorded.
    function fundingMandate(address client)
        external
        view
        returns (address funder, uint256 perMission, uint256 perDay, uint64 validUntil, uint256 nonce)
    {
        FundingMandate storage m = _mandates[client];
        return (m.funder, m.perMission, m.perDay, m.validUntil, m.nonce);
    }

    /// The EIP-712 digest the client signs for `m` (domain: name "TaskEscrow", version "5").
    function fundingMandateDigest(FundingMandate calldata m) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(FUNDING_MANDATE_TYPEHASH, m.client, m.funder, m.perMission, m.perDay, m.validUntil, m.nonce)
            )
        );
    }

    /// The EIP-712 digest of a revocation of `client`'s mandate at `nonce`.
    function fundingMandateRevocationDigest(address client, uint256 nonce) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(FUNDING_MANDATE_REVOCATION_TYPEHASH, client, nonce)));
    }

    /// Sets `m` as `m.client`'s mandate, replacing any before it. Anyone may relay it; the signature
    /// must be `m.client`'s (an EOA's, or an ERC-1271 wallet's) over `m` with the current nonce.
    function setFundingMandate(FundingMandate calldata m, bytes calldata signature) external {
        _setFundingMandate(m, signature);
    }

    /// `setFundingMandate` after the token's permit letting this escrow pull up to `permitValue`
    /// from `m.client` until `permitDeadline`. A permit already used — by a front-runner who sent
    /// the same signature first — is tolerated when the allowance it set is in place.
    function setFundingMandateWithPermit(
        FundingMandate calldata m,
        bytes calldata signature,
        uint256 permitValue,
        uint256 permitDeadline,
        bytes calldata permitSignature
    ) external {
        try IERC2612BytesPermit(address(token)).permit(m.client, address(this), permitValue, permitDeadline, permitSignature) {
            // The allowance is set.
        } catch {
            uint256 allowance = token.allowance(m.client, address(this));
            if (allowance < permitValue) revert PermitFailed(m.client, allowance, permitValue);
        }
        _setFundingMandate(m, signature);
    }

    /// The client revokes its mandate; any mandate or revocation signed with the old nonce is void.
    function revokeFundingMandate() external {
        _revoke(msg.sender);
    }

    /// A relayed revocation: `client`'s signature over FundingMandateRevocation(client, nonce), with
    /// the current nonce.
    function revokeFundingMandateBySig(address client, uint256 nonce, bytes calldata signature) external {
        uint256 expected = mandateNonce[client];
        if (nonce != expected) revert MandateNonceMismatch(expected, nonce);
        if (!SignatureChecker.isValidSignatureNowCalldata(client, fundingMandateRevocationDigest(client, nonce), signature))
            revert BadMandateSignature(client);
        _revoke(client);
    }

    /// Opens a task whose client is `client`, pulling `reward` from it (its allowance to this
    /// escrow), called by the funder its mandate names, before the mandate's `validUntil`, within
    /// its `perMission` and — with what it funded earlier the same UTC day — its `perDay`.
    function createTaskFor(address client, uint256 reward, bytes32 ref, uint64 expiresAt)
        external
        nonReentrant
        returns (uint256 taskId)
    {
        FundingMandate storage m = _mandates[client];
        if (m.funder == address(0) || m.funder != msg.sender) revert NotMandateFunder(client, msg.sender);
        if (block.timestamp >= m.validUntil) revert MandateExpired(m.validUntil);
        if (reward == 0) revert ZeroAmount();
        if (reward > m.perMission) revert OverPerMission(m.perMission, reward);
        uint256 day = block.timestamp / 1 days;
        uint256 fundedToday = fundedOn[client][day];
        if (fundedToday + reward > m.perDay) revert OverPerDay(m.perDay, fundedToday, reward);
        if (expiresAt <= block.timestamp) revert ExpiryNotInFuture(expiresAt);
        fundedOn[client][day] = fundedToday + reward;
        taskId = ++taskCount;
        tasks[taskId] = Task({client: client, amount: reward, state: State.Open, expiresAt: expiresAt});
        emit TaskCreated(taskId, client, reward, ref);
        emit TaskFundedByMandate(taskId, client, msg.sender, reward);
        token.safeTransferFrom(client, address(this), reward);
    }

    function _setFundingMandate(FundingMandate calldata m, bytes calldata signature) private {
        if (m.client == address(0) || m.funder == address(0)) revert ZeroAddress();
        uint256 expected = mandateNonce[m.client];
        if (m.nonce != expected) revert MandateNonceMismatch(expected, m.nonce);
        if (m.validUntil <= block.timestamp) revert MandateExpired(m.validUntil);
        if (!SignatureChecker.isValidSignatureNowCalldata(m.client, fundingMandateDigest(m), signature))
            revert BadMandateSignature(m.client);
        mandateNonce[m.client] = expected + 1;
        _mandates[m.client] = m;
        emit FundingMandateSet(m.client, m.funder, m.perMission, m.perDay, m.validUntil, m.nonce);
    }

    function _revoke(address client) private {
        uint256 nonce = mandateNonce[client];
        mandateNonce[client] = nonce + 1;
        delete _mandates[client];
        emit FundingMandateRevoked(client, nonce);
    }
}
