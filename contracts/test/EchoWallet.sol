// SPDX-License-Identifier: MIT
// Test only: a contract that answers every call with its own calldata — so `isValidSignature`
// returns data that starts with the magic value 0x1626ba7e (the selector) but is not the value
// itself. A verifier that checks a prefix would accept it. Never deployed outside tests.
pragma solidity 0.8.28;

contract EchoWallet {
    fallback() external {
        assembly {
            calldatacopy(0, 0, calldatasize())
            return(0, calldatasize())
        }
    }
}
