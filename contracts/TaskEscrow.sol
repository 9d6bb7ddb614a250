// SPDX-License-Identifier: MIT
// Holds task rewards in one ERC-20 until the operator releases them to an agent or refunds the
// client. Payouts are pull payments: release and refund only credit, claim moves the tokens.
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

contract TaskEscrow is ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum State {
        None,
        Open,
        Released,
        Refunded
    }

    struct Task {
        address client;
        uint256 amount;
        State state;
    }

    uint16 private constant MAX_BPS = 10_000;

    IERC20 public immutable token;
    address public immutable operator;
    address public immutable feeRecipient;

    /// The last id handed out; ids count up from 1 so 0 never names a task.
    uint256 public taskCount;
    mapping(uint256 taskId => Task) public tasks;
    mapping(address beneficiary => uint256 amount) public claimable;

    event TaskCreated(uint256 indexed taskId, address indexed client, uint256 reward, bytes32 ref);
    event TaskToppedUp(uint256 indexed taskId, uint256 amount, uint256 newAmount);
    event TaskReleased(uint256 indexed taskId, address indexed agent, uint256 agentAmount, uint256 fee);
    event TaskRefunded(uint256 indexed taskId, address indexed client, uint256 amount);
    event Claimed(address indexed beneficiary, uint256 amount);

    error ZeroAddress();
    error ZeroAmount();
    error NotOperator(address caller);
    error NotTaskClient(uint256 taskId, address caller);
    error TaskNotOpen(uint256 taskId);
    error FeeTooHigh(uint16 feeBps);
    error NothingToClaim(address beneficiary);

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address token_, address operator_, address feeRecipient_) {
        if (token_ == address(0) || operator_ == address(0) || feeRecipient_ == address(0)) revert ZeroAddress();
        token = IERC20(token_);
        operator = operator_;
        feeRecipient = feeRecipient_;
    }

    /// `ref` ties the task to the backend's mission; the contract only echoes it in the event.
    function createTask(uint256 reward, bytes32 ref) external nonReentrant returns (uint256 taskId) {
        if (reward == 0) revert ZeroAmount();
        taskId = ++taskCount;
        tasks[taskId] = Task({client: msg.sender, amount: reward, state: State.Open});
        emit TaskCreated(taskId, msg.sender, reward, ref);
        token.safeTransferFrom(msg.sender, address(this), reward);
    }

    function topUp(uint256 taskId, uint256 amount) external nonReentrant {
        Task storage task = tasks[taskId];
        if (task.state != State.Open) revert TaskNotOpen(taskId);
        if (task.client != msg.sender) revert NotTaskClient(taskId, msg.sender);
        if (amount == 0) revert ZeroAmount();
        task.amount += amount;
        emit TaskToppedUp(taskId, amount, task.amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// Credits the agent with the reward less `feeBps`, and the fee to the fee recipient. The fee
    /// rounds down, in the agent's favour.
    function release(uint256 taskId, address agent, uint16 feeBps) external onlyOperator nonReentrant {
        if (feeBps > MAX_BPS) revert FeeTooHigh(feeBps);
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
