// SPDX-License-Identifier: MIT
// Holds task rewards in one ERC-20 until the operator releases them to an agent or refunds the
// client — or, once a task has expired unsettled, until its client reclaims it, which nobody can
// block (API.md §13). Payouts are pull payments: release, refund and reclaim only credit, claim
// moves the tokens. The owner (two-step) can replace a leaked operator key; the fee is capped for
// the contract's life, so not even the owner and the operator together can take more.
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

contract TaskEscrow is Ownable2Step, ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum State {
        None,
        Open,
        Released,
        Refunded,
        Reclaimed
    }

    struct Task {
        address client;
        uint256 amount;
        State state;
        uint64 expiresAt;
    }

    uint16 private constant MAX_BPS = 10_000;
    /// The highest fee any deployment may set: 20 %.
    uint16 public constant FEE_CEILING_BPS = 2_000;

    IERC20 public immutable token;
    /// The highest fee `release` may take, fixed at deployment.
    uint16 public immutable maxFeeBps;
    address public operator;
    address public feeRecipient;

    /// The last id handed out; ids count up from 1 so 0 never names a task.
    uint256 public taskCount;
    mapping(uint256 taskId => Task) public tasks;
    mapping(address beneficiary => uint256 amount) public claimable;

    event TaskCreated(uint256 indexed taskId, address indexed client, uint256 reward, bytes32 ref);
    event TaskToppedUp(uint256 indexed taskId, uint256 amount, uint256 newAmount);
    event TaskExtended(uint256 indexed taskId, uint64 expiresAt);
    event TaskReleased(uint256 indexed taskId, address indexed agent, uint256 agentAmount, uint256 fee);
    event TaskRefunded(uint256 indexed taskId, address indexed client, uint256 amount);
    event TaskReclaimed(uint256 indexed taskId, address indexed client, uint256 amount);
    event Claimed(address indexed beneficiary, uint256 amount);
    event OperatorChanged(address indexed previousOperator, address indexed newOperator);
    event FeeRecipientChanged(address indexed previousRecipient, address indexed newRecipient);

    error ZeroAddress();
    error ZeroAmount();
    error NotOperator(address caller);
    error NotTaskClient(uint256 taskId, address caller);
    error TaskNotOpen(uint256 taskId);
    error FeeTooHigh(uint16 feeBps);
    error MaxFeeTooHigh(uint16 maxFeeBps);
    error ExpiryNotInFuture(uint64 expiresAt);
    error ExpiryNotLater(uint64 current, uint64 requested);
    error NotExpired(uint256 taskId, uint64 expiresAt);
    error NothingToClaim(address beneficiary);

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address token_, address owner_, address operator_, address feeRecipient_, uint16 maxFeeBps_)
        Ownable(owner_)
    {
        if (token_ == address(0) || operator_ == address(0) || feeRecipient_ == address(0)) revert ZeroAddress();
        if (maxFeeBps_ > FEE_CEILING_BPS) revert MaxFeeTooHigh(maxFeeBps_);
        token = IERC20(token_);
        operator = operator_;
        feeRecipient = feeRecipient_;
        maxFeeBps = maxFeeBps_;
        emit OperatorChanged(address(0), operator_);
        emit FeeRecipientChanged(address(0), feeRecipient_);
    }

    /// A leaked or lost operator key is replaced here; the old key can do nothing from then on.
    function setOperator(address newOperator) external onlyOwner {
        if (newOperator == address(0)) revert ZeroAddress();
        emit OperatorChanged(operator, newOperator);
        operator = newOperator;
    }

    function setFeeRecipient(address newRecipient) external onlyOwner {
        if (newRecipient == address(0)) revert ZeroAddress();
        emit FeeRecipientChanged(feeRecipient, newRecipient);
        feeRecipient = newRecipient;
    }

    /// `ref` ties the task to the backend's mission; the contract only echoes it in the event.
    /// From `expiresAt` on, an unsettled task can be reclaimed by its client.
    function createTask(uint256 reward, bytes32 ref, uint64 expiresAt) external nonReentrant returns (uint256 taskId) {
        if (reward == 0) revert ZeroAmount();
        if (expiresAt <= block.timestamp) revert ExpiryNotInFuture(expiresAt);
        taskId = ++taskCount;
        tasks[taskId] = Task({client: msg.sender, amount: reward, state: State.Open, expiresAt: expiresAt});
        emit TaskCreated(taskId, msg.sender, reward, ref);
        token.safeTransferFrom(msg.sender, address(this), reward);
    }

    function topUp(uint256 taskId, uint256 amount) external nonReentrant {
        Task storage task = _openTaskOf(taskId, msg.sender);
        if (amount == 0) revert ZeroAmount();
        task.amount += amount;
        emit TaskToppedUp(taskId, amount, task.amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// The client gives the work more time: the expiry moves later, never earlier.
    function extend(uint256 taskId, uint64 expiresAt) external {
        Task storage task = _openTaskOf(taskId, msg.sender);
        if (expiresAt <= task.expiresAt) revert ExpiryNotLater(task.expiresAt, expiresAt);
        task.expiresAt = expiresAt;
        emit TaskExtended(taskId, expiresAt);
    }

    /// Once a task has expired still open, its client takes the whole amount back; neither the
    /// operator nor anyone else can stop it. Whichever of reclaim and release comes first wins.
    function reclaim(uint256 taskId) external nonReentrant {
        Task storage task = _openTaskOf(taskId, msg.sender);
        if (block.timestamp < task.expiresAt) revert NotExpired(taskId, task.expiresAt);
        task.state = State.Reclaimed;
        claimable[msg.sender] += task.amount;
        emit TaskReclaimed(taskId, msg.sender, task.amount);
    }

    /// Credits the agent with the reward less `feeBps`, and the fee to the fee recipient. The fee
    /// rounds down, in the agent's favour, and never exceeds `maxFeeBps`.
    function release(uint256 taskId, address agent, uint16 feeBps) external onlyOperator nonReentrant {
        if (feeBps > maxFeeBps) revert FeeTooHigh(feeBps);
        if (agent == address(0)) revert ZeroAddress();
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        task.state = State.Released;
        uint256 fee = Math.mulDiv(task.amount, feeBps, MAX_BPS);
        uint256 agentAmount = task.amount - fee;
        claimable[agent] += agentAmount;
        claimable[feeRecipient] += fee;
        emit TaskReleased(taskId, agent, agentAmount, fee);
    }

    function refund(uint256 taskId) external onlyOperator nonReentrant {
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        task.state = State.Refunded;
        claimable[task.client] += task.amount;
        emit TaskRefunded(taskId, task.client, task.amount);
    }

    function claim() external nonReentrant returns (uint256) {
        return _payOut(msg.sender);
    }

    /// Anyone may pay a beneficiary what they are owed (e.g. a relayer covering gas); the tokens
    /// go only to the beneficiary.
    function claimFor(address beneficiary) external nonReentrant returns (uint256) {
        return _payOut(beneficiary);
    }

    function _openTaskOf(uint256 taskId, address caller) private view returns (Task storage task) {
        task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        if (task.client != caller) revert NotTaskClient(taskId, caller);
    }

    /// Zeroes the credit before the transfer (checks-effects-interactions) as well as holding the
    /// reentrancy lock, so a token callback can never be paid twice.
    function _payOut(address beneficiary) private returns (uint256 amount) {
        amount = claimable[beneficiary];
        if (amount == 0) revert NothingToClaim(beneficiary);
        claimable[beneficiary] = 0;
        emit Claimed(beneficiary, amount);
        token.safeTransfer(beneficiary, amount);
    }
}
