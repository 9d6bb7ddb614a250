// SPDX-License-Identifier: MIT
// Test only: an ERC-20 that, when armed, calls back into the escrow while the escrow is paying
// out, and records how that nested call ended. Never deployed outside tests.
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract ReentrantToken is ERC20 {
    address public escrow;
    bytes public reentryCall;
    bool public reentryAttempted;
    bool public reentrySucceeded;
    bytes public reentryResult;

    constructor() ERC20("Reentrant Token", "REENTER") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// Arms the attack: the next transfer out of `escrow_` makes the call `data` to the escrow.
    function arm(address escrow_, bytes calldata data) external {
        escrow = escrow_;
        reentryCall = data;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (from != address(0) && from == escrow && reentryCall.length != 0) {
            bytes memory data = reentryCall;
            delete reentryCall; // attack once, so the nested call cannot recurse into itself
            reentryAttempted = true;
            (reentrySucceeded, reentryResult) = escrow.call(data);
        }
    }
}
